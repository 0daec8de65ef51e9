import { CheckIcon, CopyIcon } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';

interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** Accessible name, e.g. "Copy base URL". */
  label: string;
  copied: boolean;
  onCopy: () => void;
  /** Show the words "Copy"/"Copied" next to the icon (default true). */
  showText?: boolean;
}

/** A copy button that says "Copied" (icon and words) for 2 s after a copy. */
export function CopyButton({ label, copied, onCopy, showText = true, variant = 'outline', size = 'sm', ...props }: CopyButtonProps) {
  return (
    <Button type="button" variant={variant} size={size} onClick={onCopy} aria-label={copied ? `${label}: copied` : label} {...props}>
      {copied ? <CheckIcon aria-hidden="true" className="text-success" /> : <CopyIcon aria-hidden="true" />}
      {showText && <span aria-hidden="true">{copied ? 'Copied' : 'Copy'}</span>}
    </Button>
  );
}
