import type { FormEvent, ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

export interface FormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** extra classes for the dialog box, e.g. a wider `sm:max-w-xl` */
  className?: string;
  /** The form (usually a component rendering `FormDialogBody`); mounted only while open. */
  children: ReactNode;
}

/**
 * A dialog that asks for a few fields and then acts. Its content is mounted afresh on every
 * open, so each opening starts from the defaults instead of what was typed last time.
 */
export function FormDialog({ open, onOpenChange, className, children }: FormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className={className}>{open && children}</DialogContent>
    </Dialog>
  );
}

export interface FormDialogBodyProps {
  title: ReactNode;
  description: ReactNode;
  /** The fields and notes between the heading and the buttons. */
  children: ReactNode;
  /** The primary action(s), shown after Cancel: a submit button, a link, … */
  actions: ReactNode;
  /** When given, the body is a `<form>` submitted by the primary action. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** Leave checking to the form's own messages rather than the browser's bubbles. */
  noValidate?: boolean;
  /** e.g. while the request runs, so the dialog is not left half-way. */
  cancelDisabled?: boolean;
}

/** Heading, fields, and a footer of Cancel plus the form's own action(s). */
export function FormDialogBody({ title, description, children, actions, onSubmit, noValidate, cancelDisabled }: FormDialogBodyProps) {
  const content = (
    <>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {children}
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={cancelDisabled}>
            Cancel
          </Button>
        </DialogClose>
        {actions}
      </DialogFooter>
    </>
  );
  if (!onSubmit) return content;
  return (
    <form onSubmit={onSubmit} noValidate={noValidate} className="grid gap-4">
      {content}
    </form>
  );
}
