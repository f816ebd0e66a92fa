import { Text } from '@chakra-ui/react';
import type { AdminUser } from '@shared/types/admin.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useSetUserAdmin } from './users-api';

/** Asks before granting or revoking admin rights: both change who can see every traveller's data. */
export function AdminFlagDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const setAdmin = useSetUserAdmin();
  const grant = !user.isAdmin;
  return (
    <ConfirmDialog
      title={grant ? `Grant admin to ${user.username}?` : `Revoke admin from ${user.username}?`}
      confirmLabel={grant ? 'Grant admin' : 'Revoke admin'}
      busyLabel={grant ? 'Granting...' : 'Revoking...'}
      busy={setAdmin.isPending}
      // The toasts come from the hook and the MutationCache; the dialog closes either way.
      onConfirm={() => setAdmin.mutate({ user, isAdmin: grant }, { onSettled: onClose })}
      onClose={onClose}
    >
      <Text>
        {grant
          ? `${user.username} (${user.email}) will see every traveller, flight and payment, edit plans, record payments and run price checks and rebookings.`
          : `${user.username} (${user.email}) will lose access to the admin area.`}
      </Text>
      <Text mt="3" color="fg.muted" fontSize="sm">
        The change is recorded in the audit log.
      </Text>
    </ConfirmDialog>
  );
}
