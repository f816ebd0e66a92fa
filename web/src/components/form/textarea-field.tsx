import { Field, Textarea, type TextareaProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface TextareaFieldProps extends Omit<TextareaProps, 'children'> {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** The multi-line twin of TextField: label, hint and error wired for screen readers. */
export function TextareaField({ label, error, hint, required, disabled, ...textareaProps }: TextareaFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} required={required} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <Textarea size="lg" {...textareaProps} />
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
