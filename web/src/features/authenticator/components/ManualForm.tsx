import { useId, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { LIMITS, OTP_ALGORITHMS, type OtpAlgorithm, type OtpType } from '@common/otpauth';
import { Button } from '@/components/ui/button';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { canSubmit, type AccountForm, type FormField } from '../form';

export interface FormProblem {
  field: FormField | null;
  message: string;
}

interface ManualFormProps {
  form: AccountForm;
  onChange: (form: AccountForm) => void;
  advancedOpen: boolean;
  onAdvancedOpenChange: (open: boolean) => void;
  problem: FormProblem | null;
  pending: boolean;
  onSubmit: () => void;
}

const selectClass =
  'flex h-9 w-full min-w-0 appearance-none rounded-md border border-input bg-transparent px-3 py-1 text-base shadow-xs outline-none md:text-sm focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 dark:bg-background';

function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <div className="relative">
      <select className={cn(selectClass, 'pr-8', className)} {...props} />
      <ChevronDown className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
    </div>
  );
}

interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: (describedBy: string | undefined) => ReactNode;
}

function Field({ id, label, hint, error, children }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children(describedBy)}
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

const ADVANCED_FIELDS: FormField[] = ['algorithm', 'digits', 'period', 'type', 'counter'];

/** Manual entry (SPEC §5): account name and secret required, issuer optional, the rest under Advanced. */
export function ManualForm({ form, onChange, advancedOpen, onAdvancedOpenChange, problem, pending, onSubmit }: ManualFormProps) {
  const id = useId();
  const set = <K extends keyof AccountForm>(key: K, value: AccountForm[K]) => onChange({ ...form, [key]: value });
  const errorFor = (field: FormField) => (problem?.field === field ? problem.message : undefined);
  const generalError = problem && problem.field === null ? problem.message : undefined;
  const advancedError = problem?.field && ADVANCED_FIELDS.includes(problem.field);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canSubmit(form) && !pending) onSubmit();
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label="Add account manually">
      {generalError && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {generalError}
        </p>
      )}
      <Field id={`${id}-name`} label={<>Account name <span className="text-destructive" aria-hidden="true">*</span></>} error={errorFor('accountName')}>
        {(describedBy) => (
          <Input
            id={`${id}-name`}
            value={form.accountName}
            onChange={(e) => set('accountName', e.target.value)}
            placeholder="you@example.com"
            autoComplete="off"
            required
            maxLength={LIMITS.accountName.max}
            aria-invalid={Boolean(errorFor('accountName')) || undefined}
            aria-describedby={describedBy}
          />
        )}
      </Field>
      <Field id={`${id}-issuer`} label={<>Issuer <span className="font-normal text-muted-foreground">(optional)</span></>} error={errorFor('issuer')}>
        {(describedBy) => (
          <Input
            id={`${id}-issuer`}
            value={form.issuer}
            onChange={(e) => set('issuer', e.target.value)}
            placeholder="GitHub, Google, AWS…"
            autoComplete="off"
            maxLength={LIMITS.issuer.max}
            aria-invalid={Boolean(errorFor('issuer')) || undefined}
            aria-describedby={describedBy}
          />
        )}
      </Field>
      <Field
        id={`${id}-secret`}
        label={<>Secret key <span className="text-destructive" aria-hidden="true">*</span></>}
        hint="The setup key the site shows next to its QR code. Spaces and lower case are fine."
        error={errorFor('secret')}
      >
        {(describedBy) => (
          <Input
            id={`${id}-secret`}
            value={form.secret}
            onChange={(e) => set('secret', e.target.value)}
            placeholder="JBSW Y3DP EHPK 3PXP"
            className="font-mono"
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            required
            aria-invalid={Boolean(errorFor('secret')) || undefined}
            aria-describedby={describedBy}
          />
        )}
      </Field>

      <Collapsible open={advancedOpen || Boolean(advancedError)} onOpenChange={onAdvancedOpenChange}>
        <CollapsibleTrigger asChild>
          <Button type="button" variant="ghost" size="sm" className="-ml-3 text-muted-foreground hover:text-foreground">
            <ChevronDown className={cn('transition-transform', (advancedOpen || advancedError) && 'rotate-180')} aria-hidden="true" />
            Advanced
            <span className="font-normal">
              ({form.type.toUpperCase()}, {form.algorithm}, {form.digits} digits{form.type === 'totp' ? `, ${form.period} s` : ''})
            </span>
          </Button>
        </CollapsibleTrigger>
        <CollapsibleContent>
          <div className="grid grid-cols-1 gap-4 pt-3 sm:grid-cols-2">
            <Field id={`${id}-type`} label="Type" error={errorFor('type')}>
              {(describedBy) => (
                <NativeSelect id={`${id}-type`} value={form.type} onChange={(e) => set('type', e.target.value as OtpType)} aria-describedby={describedBy}>
                  <option value="totp">TOTP (time-based)</option>
                  <option value="hotp">HOTP (counter-based)</option>
                </NativeSelect>
              )}
            </Field>
            <Field id={`${id}-algorithm`} label="Algorithm" error={errorFor('algorithm')}>
              {(describedBy) => (
                <NativeSelect
                  id={`${id}-algorithm`}
                  value={form.algorithm}
                  onChange={(e) => set('algorithm', e.target.value as OtpAlgorithm)}
                  aria-describedby={describedBy}
                >
                  {OTP_ALGORITHMS.map((algorithm) => (
                    <option key={algorithm} value={algorithm}>
                      {algorithm}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            <Field id={`${id}-digits`} label="Digits" error={errorFor('digits')}>
              {(describedBy) => (
                <NativeSelect id={`${id}-digits`} value={form.digits} onChange={(e) => set('digits', e.target.value)} aria-describedby={describedBy}>
                  {Array.from({ length: LIMITS.digits.max - LIMITS.digits.min + 1 }, (_, i) => String(LIMITS.digits.min + i)).map((digits) => (
                    <option key={digits} value={digits}>
                      {digits}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            {form.type === 'totp' ? (
              <Field id={`${id}-period`} label="Period (seconds)" error={errorFor('period')}>
                {(describedBy) => (
                  <Input
                    id={`${id}-period`}
                    type="number"
                    inputMode="numeric"
                    min={LIMITS.period.min}
                    max={LIMITS.period.max}
                    value={form.period}
                    onChange={(e) => set('period', e.target.value)}
                    aria-invalid={Boolean(errorFor('period')) || undefined}
                    aria-describedby={describedBy}
                  />
                )}
              </Field>
            ) : (
              <Field id={`${id}-counter`} label="Counter" error={errorFor('counter')}>
                {(describedBy) => (
                  <Input
                    id={`${id}-counter`}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    value={form.counter}
                    onChange={(e) => set('counter', e.target.value)}
                    aria-invalid={Boolean(errorFor('counter')) || undefined}
                    aria-describedby={describedBy}
                  />
                )}
              </Field>
            )}
          </div>
        </CollapsibleContent>
      </Collapsible>

      <div className="flex justify-end pt-1">
        <Button type="submit" disabled={!canSubmit(form) || pending} className="w-full sm:w-auto">
          {pending && <Spinner label="Adding account" className="text-primary-foreground" />}
          {pending ? 'Adding…' : 'Add Account'}
        </Button>
      </div>
    </form>
  );
}
