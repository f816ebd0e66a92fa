import { Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { adminCommissionPaymentSchema } from '@shared/schemas/admin.ts';
import type { AdminUser } from '@shared/types/admin.ts';
import { FormDialog } from '@/components/form/form-dialog';
import { MoneyField } from '@/components/form/money-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { formatMoney } from '@/lib/format';
import { useRecordCommissionPayment } from './users-api';

/**
 * Records a commission payment a traveller made outside the app (a bank transfer): the amount
 * starts at what they owe and may be less, never more (the api refuses more with a 400 as well).
 */
export function CommissionPaymentDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const recordPayment = useRecordCommissionPayment();
  const schema = useMemo(
    () =>
      adminCommissionPaymentSchema.refine((body) => body.amount <= user.commissionOwed, {
        path: ['amount'],
        error: `Amount cannot be more than the ${formatMoney(user.commissionOwed)} owed`,
      }),
    [user.commissionOwed],
  );
  const form = useZodForm(schema, { userId: user.id, amount: user.commissionOwed });
  const busy = recordPayment.isPending;
  return (
    <FormDialog
      title="Record Commission Payment"
      submitLabel="Record Payment"
      busy={busy}
      onClose={onClose}
      onSubmit={form.handleSubmit((body) =>
        recordPayment.mutate({ body, username: user.username }, { onSuccess: onClose, onError: form.showServerErrors }),
      )}
    >
      <Text>
        {user.username} ({user.email}) owes {formatMoney(user.commissionOwed)} in commission and has paid{' '}
        {formatMoney(user.commissionPaid)}.
      </Text>
      <MoneyField
        label="Amount paid (USD)"
        hint={`Up to ${formatMoney(user.commissionOwed)}`}
        required
        disabled={busy}
        {...form.moneyField('amount')}
      />
    </FormDialog>
  );
}
