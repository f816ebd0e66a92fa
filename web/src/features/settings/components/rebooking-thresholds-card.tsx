import { Box, Button, Stack } from '@chakra-ui/react';
import { REBOOKING_SLIDERS, rebookingThresholdsSchema } from '@shared/schemas/settings.ts';
import type { CurrentUser } from '@/lib/auth';
import { SelectField } from '@/components/form/select-field';
import { SliderField } from '@/components/form/slider-field';
import { SwitchField } from '@/components/form/switch-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { formatMoney } from '@/lib/format';
import { useSaveRebookingThresholds } from '../api';
import { PremiumNotice } from './premium-notice';
import { SettingsCard } from './settings-card';

type Thresholds = Pick<
  CurrentUser,
  | 'minSavingsPercent'
  | 'minSavingsAmount'
  | 'thresholdCondition'
  | 'useSeparateInternationalThresholds'
  | 'internationalMinSavingsPercent'
  | 'internationalMinSavingsAmount'
>;

const CONDITIONS = [
  { value: 'either', label: 'Either threshold is met' },
  { value: 'both', label: 'Both thresholds are met' },
];

const percent = (value: number) => `${value}%`;
const dollars = (cents: number) => formatMoney(cents, 0);

/**
 * The api accepts anything within the stored limits, the sliders offer narrower ranges: a value
 * stored outside a slider's range starts at the nearest end of it.
 */
function withinSlider(name: keyof typeof REBOOKING_SLIDERS, value: number): number {
  const { min, max } = REBOOKING_SLIDERS[name];
  return Math.min(max, Math.max(min, value));
}

interface RebookingThresholdsCardProps {
  thresholds: Thresholds;
  premium: boolean;
  onUpgrade: () => void;
}

/**
 * 'Rebooking Thresholds': how much a drop must save (percent and amount, either or both) before it
 * is rebooked automatically, with a separate pair for international flights when the switch is
 * on. Premium only: every control is disabled for other plans.
 */
export function RebookingThresholdsCard({ thresholds, premium, onUpgrade }: RebookingThresholdsCardProps) {
  const save = useSaveRebookingThresholds();
  const form = useZodForm(rebookingThresholdsSchema, {
    minSavingsPercent: withinSlider('minSavingsPercent', thresholds.minSavingsPercent),
    minSavingsAmount: withinSlider('minSavingsAmount', thresholds.minSavingsAmount),
    thresholdCondition: thresholds.thresholdCondition,
    useSeparateInternationalThresholds: thresholds.useSeparateInternationalThresholds,
    internationalMinSavingsPercent: withinSlider(
      'internationalMinSavingsPercent',
      thresholds.internationalMinSavingsPercent,
    ),
    internationalMinSavingsAmount: withinSlider(
      'internationalMinSavingsAmount',
      thresholds.internationalMinSavingsAmount,
    ),
  });
  const disabled = !premium || save.isPending;

  const onSubmit = form.handleSubmit((input) => save.mutate(input, { onError: form.showServerErrors }));

  const slider = (name: keyof typeof REBOOKING_SLIDERS) => ({
    min: REBOOKING_SLIDERS[name].min,
    max: REBOOKING_SLIDERS[name].max,
    step: REBOOKING_SLIDERS[name].step,
    disabled,
    ...form.sliderField(name),
  });

  return (
    <SettingsCard
      title="Rebooking Thresholds"
      description="How much a price drop must save before we rebook it automatically."
    >
      <form onSubmit={onSubmit} noValidate aria-label="Rebooking Thresholds">
        <Stack gap="6">
          {!premium && (
            <PremiumNotice onUpgrade={onUpgrade}>
              Custom rebooking thresholds are a Premium feature. Free plans use the default thresholds.
            </PremiumNotice>
          )}
          <SliderField
            label="Minimum savings percentage"
            formatValue={percent}
            hint={`${percent(REBOOKING_SLIDERS.minSavingsPercent.min)} to ${percent(REBOOKING_SLIDERS.minSavingsPercent.max)} of the original price`}
            {...slider('minSavingsPercent')}
          />
          <SliderField
            label="Minimum savings amount"
            formatValue={dollars}
            hint={`${dollars(REBOOKING_SLIDERS.minSavingsAmount.min)} to ${dollars(REBOOKING_SLIDERS.minSavingsAmount.max)}`}
            {...slider('minSavingsAmount')}
          />
          <SelectField
            label="Rebook when"
            options={CONDITIONS}
            disabled={disabled}
            {...form.field('thresholdCondition')}
          />
          <SwitchField
            label="Use separate thresholds for international flights"
            hint="Flights between two countries often need a bigger saving to be worth changing."
            disabled={disabled}
            {...form.switchField('useSeparateInternationalThresholds')}
          />
          {form.values.useSeparateInternationalThresholds && (
            <>
              <SliderField
                label="International minimum savings percentage"
                formatValue={percent}
                hint={`${percent(REBOOKING_SLIDERS.internationalMinSavingsPercent.min)} to ${percent(REBOOKING_SLIDERS.internationalMinSavingsPercent.max)}`}
                {...slider('internationalMinSavingsPercent')}
              />
              <SliderField
                label="International minimum savings amount"
                formatValue={dollars}
                hint={`${dollars(REBOOKING_SLIDERS.internationalMinSavingsAmount.min)} to ${dollars(REBOOKING_SLIDERS.internationalMinSavingsAmount.max)}`}
                {...slider('internationalMinSavingsAmount')}
              />
            </>
          )}
          <Box>
            <Button
              type="submit"
              disabled={!premium}
              loading={save.isPending}
              loadingText="Saving..."
              width={{ base: 'full', sm: 'auto' }}
            >
              Save Thresholds
            </Button>
          </Box>
        </Stack>
      </form>
    </SettingsCard>
  );
}
