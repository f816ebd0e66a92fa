import { useCallback, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';

type Values = Record<string, string>;
export type FieldErrors<V> = Partial<Record<keyof V & string, string>>;

/** First message per top-level field, in schema order. */
export function fieldErrors<V extends Values>(error: z.ZodError): FieldErrors<V> {
  const errors: FieldErrors<V> = {};
  for (const issue of error.issues) {
    const name = issue.path[0];
    if (typeof name !== 'string') continue;
    const key = name as keyof V & string;
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * A small form state for text fields driven by one zod schema (the same schema the request
 * uses). Validates on submit; after the first submit, re-validates as the person types so a
 * fixed field clears its message. Focuses the first invalid field.
 */
export function useZodForm<S extends z.ZodType<unknown, Values>>(schema: S, initial: z.input<S>) {
  type V = z.input<S>;
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [submitted, setSubmitted] = useState(false);

  const validate = useCallback(
    (next: V) => {
      const result = schema.safeParse(next);
      return result.success
        ? { data: result.data, errors: {} as FieldErrors<V> }
        : { data: undefined, errors: fieldErrors<V>(result.error) };
    },
    [schema],
  );

  const field = (name: keyof V & string) => ({
    name,
    value: values[name] ?? '',
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const next = { ...values, [name]: event.target.value } as V;
      setValues(next);
      if (submitted) setErrors(validate(next).errors);
    },
  });

  const handleSubmit = (onValid: (data: z.output<S>) => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const result = validate(values);
    setErrors(result.errors);
    const firstInvalid = Object.keys(result.errors)[0];
    if (firstInvalid) {
      event.currentTarget.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    onValid(result.data as z.output<S>);
  };

  const reset = (next: V = initial) => {
    setValues(next);
    setErrors({});
    setSubmitted(false);
  };

  return { values, errors, field, handleSubmit, reset };
}
