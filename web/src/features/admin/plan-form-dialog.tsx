import { subscriptionPlanSchema, type SubscriptionPlanInput } from '@shared/schemas/admin.ts';
import { UNLIMITED_FLIGHTS } from '@shared/constants.ts';
import type { AdminSubscriptionPlan } from '@shared/types/admin.ts';
import { CheckboxField } from '@/components/form/checkbox-field';
import { FormDialog } from '@/components/form/form-dialog';
import { NumberField } from '@/components/form/number-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { formatMoney } from '@/lib/format';
import { useCreatePlan, useUpdatePlan } from './plans-api';

// Price and flight limit start blank: the admin types them.
const NEW_PLAN: Partial<SubscriptionPlanInput> = {
  name: '',
  commissionRate: 0,
  description: '',
  autoRebookingEnabled: false,
  isActive: true,
};

function formValues(plan: AdminSubscriptionPlan): SubscriptionPlanInput {
  const { name, price, flightLimit, commissionRate, description, autoRebookingEnabled, isActive } = plan;
  return { name, price, flightLimit, commissionRate, description: description ?? '', autoRebookingEnabled, isActive };
}

/**
 * 'Add Plan' (no `plan`) and 'Edit Subscription Plan': one form over the request's own schema,
 * so it refuses what the api would, with the same words; a 400 the form could not foresee (a
 * name already taken) puts the api's message on its field. Closes once the plan is saved.
 */
export function PlanFormDialog({ plan, onClose }: { plan?: AdminSubscriptionPlan; onClose: () => void }) {
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const form = useZodForm(subscriptionPlanSchema, plan ? formValues(plan) : NEW_PLAN);
  const busy = create.isPending || update.isPending;
  const price = form.values.price;

  const onSubmit = form.handleSubmit((body) => {
    const options = { onSuccess: onClose, onError: form.showServerErrors };
    if (plan) update.mutate({ id: plan.id, body }, options);
    else create.mutate(body, options);
  });

  return (
    <FormDialog
      title={plan ? 'Edit Subscription Plan' : 'Add Subscription Plan'}
      submitLabel={plan ? 'Update Plan' : 'Create Plan'}
      busy={busy}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <TextField label="Name" required disabled={busy} autoComplete="off" {...form.field('name')} />
      <NumberField
        label="Price (cents)"
        min={0}
        step={1}
        required
        disabled={busy}
        hint={typeof price === 'number' && Number.isFinite(price) ? formatMoney(price) : 'Whole cents: 2499 is $24.99'}
        {...form.numberField('price')}
      />
      <NumberField
        label="Flight Limit"
        min={UNLIMITED_FLIGHTS}
        step={1}
        required
        disabled={busy}
        hint={`Flights a subscriber may watch at once; ${UNLIMITED_FLIGHTS} for unlimited`}
        {...form.numberField('flightLimit')}
      />
      <NumberField
        label="Commission Rate (%)"
        min={0}
        max={100}
        step={1}
        disabled={busy}
        hint="Percent of the airline credit charged on a rebooking; 0 for none"
        {...form.numberField('commissionRate')}
      />
      <TextareaField label="Description" rows={3} disabled={busy} {...form.field('description')} />
      <CheckboxField label="Auto-Rebooking Enabled" disabled={busy} {...form.checkboxField('autoRebookingEnabled')} />
      <CheckboxField
        label="Active"
        hint="Inactive plans are kept for their subscribers but no longer offered"
        disabled={busy}
        {...form.checkboxField('isActive')}
      />
    </FormDialog>
  );
}
