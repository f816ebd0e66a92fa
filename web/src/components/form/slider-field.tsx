import { Field, HStack, Slider, useFieldContext } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface SliderFieldProps {
  label: string;
  name: string;
  /** Missing until chosen; the thumb then sits at `min`. */
  value: number | undefined;
  onValueChange: (value: number) => void;
  min: number;
  max: number;
  step?: number;
  /** How the value reads beside the label and to screen readers ('15%', '$50'). */
  formatValue?: (value: number) => string;
  error?: string | undefined;
  hint?: ReactNode;
  disabled?: boolean;
}

/**
 * A number chosen on a range (a threshold, a percentage): the label with the current value above
 * the track, hint and error below. The thumb is the focusable slider, named by the label and
 * described by the hint and error; arrow keys move it by `step`.
 */
export function SliderField({ error, hint, disabled, ...sliderProps }: SliderFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled}>
      <FieldSlider {...sliderProps} disabled={disabled} invalid={Boolean(error)} />
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

type FieldSliderProps = Omit<SliderFieldProps, 'error' | 'hint'> & { invalid: boolean };

// The slider does not read the Field's ids itself, so its thumb takes them here.
function FieldSlider({
  label,
  name,
  value,
  onValueChange,
  min,
  max,
  step = 1,
  formatValue = String,
  disabled,
  invalid,
}: FieldSliderProps) {
  const field = useFieldContext();
  const current = value ?? min;
  return (
    <Slider.Root
      // the Field stacks its parts at their own width; a track is as wide as its field
      width="full"
      name={name}
      min={min}
      max={max}
      step={step}
      value={[current]}
      onValueChange={(details) => {
        const [next] = details.value;
        if (next !== undefined) onValueChange(next);
      }}
      getAriaValueText={(details) => formatValue(details.value)}
      disabled={disabled}
      invalid={invalid}
      // The recipe's md thumb is 20 px; knowing it, the slider places the thumb at once instead
      // of hiding it until it has measured one.
      size="md"
      thumbSize={{ width: 20, height: 20 }}
    >
      <HStack justify="space-between">
        <Slider.Label>{label}</Slider.Label>
        <Slider.ValueText>{formatValue(current)}</Slider.ValueText>
      </HStack>
      <Slider.Control>
        <Slider.Track>
          <Slider.Range />
        </Slider.Track>
        <Slider.Thumb index={0} aria-describedby={field?.ariaDescribedby}>
          <Slider.HiddenInput />
        </Slider.Thumb>
      </Slider.Control>
    </Slider.Root>
  );
}
