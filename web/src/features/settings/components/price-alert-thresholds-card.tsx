import { Box, SimpleGrid } from '@chakra-ui/react';
import { PRICE_ALERT_INPUTS, priceAlertThresholdsSchema } from '@shared/schemas/settings.ts';
import { useRef } from 'react';
import { z } from 'zod';
import { NumberField } from '@/components/form/number-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { useSavePriceAlertThresholds } from '../api';
import { SettingsCard } from './settings-card';

/** The card's fields: the amount in dollars (the request's cents), the percent as is. */
export const priceAlertFormSchema = z
  .object({ minPriceDrop: z.number(), minPriceDropPercent: z.number() })
  .transform(({ minPriceDrop, minPriceDropPercent }) => ({
    minPriceDrop: Math.round(minPriceDrop * 100),
    minPriceDropPercent,
  }))
  .pipe(priceAlertThresholdsSchema);

interface PriceAlertThresholdsCardProps {
  /** Cents. */
  minPriceDrop: number;
  minPriceDropPercent: number;
}

/**
 * 'Price Alert Thresholds', every plan's: an alert goes out when a drop meets either figure.
 * A field is saved when it loses focus, if what it holds is a number the api accepts (0 or more;
 * the percent a whole number up to 100) and differs from what was saved; anything else is ignored.
 */
export function PriceAlertThresholdsCard({ minPriceDrop, minPriceDropPercent }: PriceAlertThresholdsCardProps) {
  const save = useSavePriceAlertThresholds();
  const form = useZodForm(priceAlertFormSchema, { minPriceDrop: minPriceDrop / 100, minPriceDropPercent });
  const saved = useRef({ minPriceDrop, minPriceDropPercent });

  /** The field just left, with the other as last saved: an invalid field never holds the other back. */
  const saveIfChanged = (name: 'minPriceDrop' | 'minPriceDropPercent') => {
    const last = saved.current;
    const parsed = priceAlertFormSchema.safeParse({
      minPriceDrop: last.minPriceDrop / 100,
      minPriceDropPercent: last.minPriceDropPercent,
      [name]: form.values[name],
    });
    if (!parsed.success) return;
    const next = parsed.data;
    if (next.minPriceDrop === last.minPriceDrop && next.minPriceDropPercent === last.minPriceDropPercent) return;
    saved.current = next;
    save.mutate(next, {
      onError: () => {
        saved.current = last;
      },
    });
  };

  return (
    <SettingsCard
      title="Price Alert Thresholds"
      description="We email you about a price drop when it meets either threshold. Changes are saved when you leave a field."
    >
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
        <Box onBlur={() => saveIfChanged('minPriceDrop')}>
          <NumberField
            label="Minimum price drop ($)"
            min={PRICE_ALERT_INPUTS.minPriceDropDollars.min}
            step={PRICE_ALERT_INPUTS.minPriceDropDollars.step}
            hint="Alert when the fare falls by at least this many dollars."
            {...form.numberField('minPriceDrop')}
          />
        </Box>
        <Box onBlur={() => saveIfChanged('minPriceDropPercent')}>
          <NumberField
            label="Minimum price drop (%)"
            min={PRICE_ALERT_INPUTS.minPriceDropPercent.min}
            max={PRICE_ALERT_INPUTS.minPriceDropPercent.max}
            step={PRICE_ALERT_INPUTS.minPriceDropPercent.step}
            hint="Or by at least this percent of what you paid."
            {...form.numberField('minPriceDropPercent')}
          />
        </Box>
      </SimpleGrid>
    </SettingsCard>
  );
}
