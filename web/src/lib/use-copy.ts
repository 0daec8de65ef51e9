import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '@/components/ui/use-toast';

/** How long a copy button says "Copied" (SPEC §9). */
export const COPIED_FEEDBACK_MS = 2000;

/** Writes text to the clipboard; falls back to a hidden textarea outside secure contexts. */
export async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}

export interface CopyMessage {
  title: string;
  description?: string;
}

/**
 * Copy with feedback: `copied` names the thing copied last (for 2 s), and a toast confirms it.
 * One hook serves several buttons; each passes its own id.
 */
export function useCopy() {
  const [copied, setCopied] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async (id: string, text: string, message: CopyMessage) => {
    try {
      await writeClipboard(text);
    } catch {
      toast({ variant: 'destructive', title: 'Copy Failed', description: 'Could not copy to clipboard.' });
      return;
    }
    setCopied(id);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(null), COPIED_FEEDBACK_MS);
    toast(message);
  }, []);

  return { copied, copy };
}
