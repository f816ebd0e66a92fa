import { Badge, Box, Button, Card, Heading, Link, List, Stack, Tabs, Text } from '@chakra-ui/react';
import {
  changeEmailInputSchema,
  changePasswordFormSchema,
  deleteAccountInputSchema,
  PASSWORD_HINT,
  type ChangePasswordForm,
} from '@shared/schemas/auth.ts';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { FormDialog } from '@/components/form/form-dialog';
import { TextField } from '@/components/form/text-field';
import { ContentLayout } from '@/components/layout/content-layout';
import { useUrlTab } from '@/hooks/use-url-tab';
import { useZodForm } from '@/hooks/use-zod-form';
import { isPremium, useCurrentUser, type CurrentUser } from '@/lib/auth';
import { formatDate } from '@/lib/format';
import { Link as RouterLink } from 'react-router';
import { useChangeEmail, useChangePassword, useConfirmEmailChange, useDeleteAccount, useDownloadMyData } from './api';

// Account Settings' two tabs; `id` is what the URL carries (?tab=email).
const ACCOUNT_TAB_IDS = ['profile', 'email'] as const;

export interface AccountPageProps {
  /** The Email Connection tab's panel (the email feature's, with 'Disconnect Email'). */
  emailPanel: ReactNode;
}

/** Spends the link of an email-change confirmation (`?email_change_token=`), then drops it from the URL. */
function useEmailChangeLink() {
  const [searchParams, setSearchParams] = useSearchParams();
  const confirm = useConfirmEmailChange();
  const token = searchParams.get('email_change_token');
  const spent = useRef(false);
  useEffect(() => {
    if (!token || spent.current) return;
    spent.current = true;
    confirm.mutate(token);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('email_change_token');
        return next;
      },
      { replace: true },
    );
  }, [token, confirm, setSearchParams]);
}

export function AccountPage({ emailPanel }: AccountPageProps) {
  const [selected, selectTab] = useUrlTab(ACCOUNT_TAB_IDS);
  const { data: user } = useCurrentUser();
  useEmailChangeLink();
  return (
    <ContentLayout title="Account Settings" description="Your profile and email connection.">
      <Tabs.Root value={selected} onValueChange={(details) => selectTab(details.value)} lazyMount variant="line">
        <Tabs.List>
          <Tabs.Trigger value="profile">Profile</Tabs.Trigger>
          <Tabs.Trigger value="email">Email Connection</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="profile" pt="6">
          {user && (
            <Stack gap="6">
              <ProfileCard user={user} />
              <YourDataCard />
            </Stack>
          )}
        </Tabs.Content>
        <Tabs.Content value="email" pt="6" maxW="3xl">
          {emailPanel}
        </Tabs.Content>
      </Tabs.Root>
    </ContentLayout>
  );
}

function ProfileCard({ user }: { user: CurrentUser }) {
  const [dialog, setDialog] = useState<'email' | 'password' | null>(null);
  const premium = isPremium(user);
  return (
    <Card.Root variant="outline" maxW="2xl">
      <Card.Body>
        <Box
          as="dl"
          display="grid"
          gridTemplateColumns={{ base: '1fr', sm: '10rem 1fr' }}
          columnGap="6"
          rowGap={{ base: '1', sm: '4' }}
        >
          <ProfileField label="Username">{user.username}</ProfileField>
          <ProfileField label="Email">{user.email}</ProfileField>
          <ProfileField label="Account Created">{formatDate(user.createdAt)}</ProfileField>
          <ProfileField label="Subscription">
            <Badge colorPalette={premium ? 'brand' : 'gray'}>{premium ? 'Premium' : 'Free'}</Badge>
          </ProfileField>
        </Box>
      </Card.Body>
      <Card.Footer>
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" w={{ base: 'full', sm: 'auto' }}>
          <Button variant="outline" onClick={() => setDialog('email')}>
            Update Email
          </Button>
          <Button variant="outline" onClick={() => setDialog('password')}>
            Change Password
          </Button>
        </Stack>
      </Card.Footer>
      {dialog === 'email' && <UpdateEmailDialog onClose={() => setDialog(null)} />}
      {dialog === 'password' && <ChangePasswordDialog onClose={() => setDialog(null)} />}
    </Card.Root>
  );
}

/** 'Your data': download everything FareBack holds, or delete the account. */
function YourDataCard() {
  const [deleting, setDeleting] = useState(false);
  const download = useDownloadMyData();
  return (
    <Card.Root variant="outline" maxW="2xl">
      <Card.Header>
        <Heading as="h2" size="md">
          Your data
        </Heading>
        <Text color="fg.muted">
          Everything FareBack holds on you is yours: take a copy, or delete your account.{' '}
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to="/privacy">How we use your data</RouterLink>
          </Link>
        </Text>
      </Card.Header>
      <Card.Footer pt="4">
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" w={{ base: 'full', sm: 'auto' }}>
          <Button variant="outline" loading={download.isPending} onClick={() => download.mutate()}>
            Download my data
          </Button>
          <Button variant="outline" colorPalette="red" onClick={() => setDeleting(true)}>
            Delete account
          </Button>
        </Stack>
      </Card.Footer>
      {deleting && <DeleteAccountDialog onClose={() => setDeleting(false)} />}
    </Card.Root>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const deleteAccount = useDeleteAccount();
  const form = useZodForm(deleteAccountInputSchema, { password: '' });
  const busy = deleteAccount.isPending;
  return (
    <FormDialog
      title="Delete account"
      submitLabel="Delete my account"
      busy={busy}
      onClose={onClose}
      onSubmit={form.handleSubmit(({ password }) =>
        deleteAccount.mutate(password ? { password } : {}, { onError: form.showServerErrors }),
      )}
    >
      <Text>This cannot be undone. What goes:</Text>
      <List.Root ps="5" gap="1">
        <List.Item>Your Gmail connection: its access is revoked at Google and the tokens are deleted</List.Item>
        <List.Item>Your flights, their price history and rebooking records</List.Item>
        <List.Item>Your notifications, settings and profile, and your sign-in</List.Item>
      </List.Root>
      <Text color="fg.muted" fontSize="sm">
        What stays: your payment records and any commission you still owe, anonymised so they no longer name you,
        because tax law requires payment records to be kept for 7 years.
      </Text>
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        hint="Signed up with Google? Leave it empty: sign in with Google again first, then delete within 10 minutes."
        disabled={busy}
        {...form.field('password')}
      />
    </FormDialog>
  );
}

function ProfileField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Text as="dt" color="fg.muted" fontSize="sm" mt={{ base: '3', sm: '0' }}>
        {label}
      </Text>
      <Box as="dd" fontWeight="medium" wordBreak="break-all">
        {children}
      </Box>
    </>
  );
}

function UpdateEmailDialog({ onClose }: { onClose: () => void }) {
  const changeEmail = useChangeEmail();
  const form = useZodForm(changeEmailInputSchema, { email: '' });
  const busy = changeEmail.isPending;
  return (
    <FormDialog
      title="Update Email"
      submitLabel="Send Confirmation Link"
      busy={busy}
      onClose={onClose}
      onSubmit={form.handleSubmit((input) =>
        changeEmail.mutate(input, { onSuccess: onClose, onError: form.showServerErrors }),
      )}
    >
      <TextField
        label="New email address"
        type="email"
        autoComplete="email"
        hint="We'll send a confirmation link there; your email changes when you open it."
        required
        disabled={busy}
        {...form.field('email')}
      />
    </FormDialog>
  );
}

const EMPTY_PASSWORDS: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const changePassword = useChangePassword();
  const form = useZodForm(changePasswordFormSchema, EMPTY_PASSWORDS);
  const busy = changePassword.isPending;
  return (
    <FormDialog
      title="Change Password"
      submitLabel="Change Password"
      busy={busy}
      onClose={onClose}
      onSubmit={form.handleSubmit(({ currentPassword, newPassword }) =>
        changePassword.mutate({ currentPassword, newPassword }, { onSuccess: onClose, onError: form.showServerErrors }),
      )}
    >
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        disabled={busy}
        {...form.field('currentPassword')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        required
        disabled={busy}
        {...form.field('newPassword')}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        required
        disabled={busy}
        {...form.field('confirmPassword')}
      />
    </FormDialog>
  );
}
