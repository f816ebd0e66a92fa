import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { z } from 'zod';
import { ApiError } from '@/lib/api-client';
import { formatMoneyInput, parseMoney } from '@/lib/format';

/** What a field can hold in a request: text, a number (cents for money), a flag. */
type FieldValue = string | number | boolean | null | undefined;
type FormInput = Record<string, FieldValue>;
export type FieldErrors<V> = Partial<Record<keyof V & string, string>>;

/** The keys of `V` whose values are of type `T` (optional or not). */
type KeysOf<V, T> = { [K in keyof V & string]-?: NonNullable<V[K]> extends T ? K : never }[keyof V & string];

/** Shown instead of the schema's message when a field's text cannot be read at all. */
export const UNREADABLE_MONEY = 'Enter an amount in dollars and cents, such as 12.50';
export const UNREADABLE_NUMBER = 'Enter a number';

// The api's 400 for a request its schema refused: `errors` names each invalid field once.
const serverErrorsSchema = z.object({
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
});

/** First message per top-level field, in schema order. */
function schemaErrors<V>(error: z.ZodError): FieldErrors<V> {
  const errors: FieldErrors<V> = {};
  for (const issue of error.issues) {
    const name = issue.path[0];
    if (typeof name !== 'string') continue;
    errors[name as keyof V & string] ??= issue.message;
  }
  return errors;
}

/**
 * Form state driven by one zod schema: the request's own schema, so the form shows the same
 * messages the api would answer with. Values are kept in the request's shape (money in integer
 * cents); money and number fields also keep the text being typed, so '12.' survives until the
 * next key.
 *
 * Validates on submit; after the first submit, re-validates as the person types so a fixed field
 * clears its message. After a failed request, `showServerErrors` puts the api's per-field
 * messages on their fields until each is edited. Either way the first invalid field (in the
 * page's order) takes the focus.
 *
 * Each accessor returns the props of its component in `components/form/`:
 * `field` -> TextField, TextareaField, SelectField; `moneyField` -> MoneyField (dollars in the
 * field, cents in the request); `numberField` -> NumberField; `switchField` -> SwitchField;
 * `checkboxField` -> CheckboxField; `sliderField` -> SliderField.
 */
export function useZodForm<S extends z.ZodType<unknown, FormInput>>(schema: S, initial: Partial<z.input<S>>) {
  type V = z.input<S>;
  type Name = keyof V & string;
  const [state, setState] = useState<FormState<V>>(() => startState(initial));
  // The invalid fields of the latest submit or failed request; the first of them takes the focus.
  const [focusRequest, setFocusRequest] = useState<{ names: ReadonlySet<string> } | null>(null);
  const formRef = useRef<HTMLFormElement | null>(null);
  const { values, texts } = state;
  const errors: FieldErrors<V> = { ...state.serverErrors, ...state.clientErrors };

  const validate = useCallback(
    (next: Partial<V>, unreadable: FieldErrors<V>) => {
      const result = schema.safeParse(next);
      const found = result.success ? {} : schemaErrors<V>(result.error);
      const all: FieldErrors<V> = { ...found, ...unreadable };
      return Object.keys(all).length === 0
        ? { data: result.data as z.output<S>, errors: all }
        : { data: undefined, errors: all };
    },
    [schema],
  );

  // Runs after the render that shows the messages (and, after a request, re-enables the fields).
  useEffect(() => {
    if (!focusRequest) return;
    const named = formRef.current?.querySelectorAll<HTMLElement>('[name]') ?? [];
    const first = [...named].find((element) => focusRequest.names.has(element.getAttribute('name') ?? ''));
    // A slider's named input is hidden inside its thumb, which takes the focus instead.
    (first?.hidden ? first.closest<HTMLElement>('[tabindex]') : first)?.focus();
  }, [focusRequest]);

  // Functional updates only: widgets may call back with a handler from an earlier render.
  const update = (name: Name, value: FieldValue, text?: string, textError?: string) =>
    setState((current) => {
      const next = { ...current.values, [name]: value } as Partial<V>;
      const unreadable = text === undefined ? current.unreadable : withMessage(current.unreadable, name, textError);
      return {
        ...current,
        values: next,
        texts: text === undefined ? current.texts : { ...current.texts, [name]: text },
        unreadable,
        serverErrors: withMessage(current.serverErrors, name, undefined),
        clientErrors: current.submitted ? validate(next, unreadable).errors : current.clientErrors,
      };
    });

  const register = <N extends Name>(name: N) => ({ name, error: errors[name] });

  /** Text, textarea and native select fields. */
  const field = (name: KeysOf<V, string>) => ({
    ...register(name),
    value: (values[name] as string | null | undefined) ?? '',
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      update(name, event.target.value),
  });

  /** Dollars in the field, integer cents in the values (and the request). */
  const moneyField = (name: KeysOf<V, number>) => ({
    ...register(name),
    value: texts[name] ?? formatMoneyInput(values[name] as number | null | undefined),
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const typed = event.target.value;
      const cents = parseMoney(typed);
      update(name, cents, typed, Number.isNaN(cents) ? UNREADABLE_MONEY : undefined);
    },
    // A readable amount is shown the way it was read: '12.5' becomes '12.50'.
    onBlur: () =>
      setState((current) => {
        const cents = parseMoney(current.texts[name] ?? '');
        if (cents === undefined || Number.isNaN(cents)) return current;
        return { ...current, texts: { ...current.texts, [name]: formatMoneyInput(cents) } };
      }),
  });

  /** Chakra's NumberInput: it reports the text and the number it reads (NaN when it reads none). */
  const numberField = (name: KeysOf<V, number>) => {
    const value = values[name] as number | null | undefined;
    return {
      ...register(name),
      value: texts[name] ?? (value === null || value === undefined ? '' : String(value)),
      onValueChange: ({ value: typed, valueAsNumber }: { value: string; valueAsNumber: number }) => {
        const blank = typed.trim() === '';
        const number = blank ? undefined : valueAsNumber;
        update(name, number, typed, !blank && Number.isNaN(valueAsNumber) ? UNREADABLE_NUMBER : undefined);
      },
    };
  };

  const switchField = (name: KeysOf<V, boolean>) => ({
    ...register(name),
    checked: Boolean(values[name]),
    onCheckedChange: (checked: boolean) => update(name, checked),
  });

  /** A checkbox holds a flag as a switch does. */
  const checkboxField = switchField;

  const sliderField = (name: KeysOf<V, number>) => ({
    ...register(name),
    value: values[name] as number | undefined,
    onValueChange: (value: number) => update(name, value),
  });

  const handleSubmit = (onValid: (data: z.output<S>) => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formRef.current = event.currentTarget;
    const result = validate(state.values, state.unreadable);
    setState((current) => ({ ...current, submitted: true, serverErrors: {}, clientErrors: result.errors }));
    if (result.data === undefined) {
      setFocusRequest({ names: new Set(Object.keys(result.errors)) });
      return;
    }
    onValid(result.data);
  };

  /**
   * Puts the api's per-field messages (a 400 naming its fields) on the fields this form shows;
   * pass it as a mutation's `onError`. Answers whether any field got a message: other failures,
   * and fields the form does not show, are left to the error toast.
   */
  const showServerErrors = (error: unknown): boolean => {
    if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 422)) return false;
    const body = serverErrorsSchema.safeParse(error.body);
    if (!body.success) return false;
    const form = formRef.current;
    const found: FieldErrors<V> = {};
    for (const { field: path, message } of body.data.errors) {
      const name = path.split('.')[0] ?? '';
      if (form?.querySelector(`[name="${CSS.escape(name)}"]`)) found[name as Name] ??= message;
    }
    if (Object.keys(found).length === 0) return false;
    setState((current) => ({ ...current, serverErrors: found }));
    setFocusRequest({ names: new Set(Object.keys(found)) });
    return true;
  };

  const reset = (next: Partial<V> = initial) => setState(startState(next));

  return {
    values,
    errors,
    field,
    moneyField,
    numberField,
    switchField,
    checkboxField,
    sliderField,
    handleSubmit,
    showServerErrors,
    reset,
  };
}

interface FormState<V> {
  /** In the request's shape: money in cents, NaN where a number field's text is unreadable. */
  values: Partial<V>;
  /** The text of money and number fields as typed. */
  texts: Partial<Record<keyof V & string, string>>;
  /** Money and number fields whose text is not a number at all. */
  unreadable: FieldErrors<V>;
  clientErrors: FieldErrors<V>;
  serverErrors: FieldErrors<V>;
  submitted: boolean;
}

function startState<V>(values: Partial<V>): FormState<V> {
  return { values, texts: {}, unreadable: {}, clientErrors: {}, serverErrors: {}, submitted: false };
}

function withMessage<V>(errors: FieldErrors<V>, name: keyof V & string, message: string | undefined): FieldErrors<V> {
  if (message === undefined && !(name in errors)) return errors;
  const next = { ...errors };
  if (message === undefined) delete next[name];
  else next[name] = message;
  return next;
}
