import { Alert, Button, Link, Stack } from '@chakra-ui/react';
import { PASSWORD_HINT, resetPasswordFormSchema } from '@shared/schemas/auth.ts';
import {
  MISSING_RESET_TOKEN_REDIRECT_MS,
  RESET_SUCCESS_REDIRECT_MS,
  RESET_VERIFY_DELAY_MS,
} from '@shared/constants.ts';
import { useEffect, useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { TextField } from '@/components/form/text-field';
import { PageSpinner } from '@/components/ui/page-spinner';
import { notify } from '@/components/ui/toaster';
import { useZodForm } from '@/hooks/use-zod-form';
import { useCurrentUser } from '@/lib/auth';
import { useResetPassword } from '../api';
import { AuthLayout } from '../components/auth-layout';

const MISSING_TOKEN_MESSAGE = 'Invalid password reset link. Please request a new one.';

/** After `ms`, go to `to` (replacing this page in history). */
function useRedirectAfter(to: string, ms: number, active: boolean) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!active) return;
    const timer = window.setTimeout(() => void navigate(to, { replace: true }), ms);
    return () => window.clearTimeout(timer);
  }, [active, navigate, to, ms]);
}

function MissingToken() {
  useEffect(() => {
    notify({ title: 'Missing token', description: MISSING_TOKEN_MESSAGE, status: 'error' });
  }, []);
  useRedirectAfter('/forgot-password', MISSING_RESET_TOKEN_REDIRECT_MS, true);

  return (
    <AuthLayout title="Reset Password">
      <Alert.Root status="error" borderRadius="md">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Missing token</Alert.Title>
          <Alert.Description>{MISSING_TOKEN_MESSAGE}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <PageSpinner compact label="Taking you to the password reset request..." />
    </AuthLayout>
  );
}

function ResetComplete() {
  useRedirectAfter('/login', RESET_SUCCESS_REDIRECT_MS, true);
  return (
    <AuthLayout title="Password Reset Complete">
      <Alert.Root status="success" borderRadius="md">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Your password has been changed</Alert.Title>
          <Alert.Description>
            You can now log in with your new password. Taking you to the login page...
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Button asChild size="lg" width="full">
        <RouterLink to="/login">Go to login</RouterLink>
      </Button>
    </AuthLayout>
  );
}

function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const resetPassword = useResetPassword();
  const form = useZodForm(resetPasswordFormSchema, { password: '', confirmPassword: '' });

  const onSubmit = form.handleSubmit(({ password }) => {
    resetPassword.mutate(
      { token, password },
      {
        onSuccess: () => {
          notify({ title: 'Password reset successful', status: 'success' });
          onDone();
        },
      },
    );
  });

  return (
    <AuthLayout
      title="Reset Password"
      description="Choose a new password for your FareBack account."
      footer={
        <Link asChild color="brand.fg" fontWeight="medium">
          <RouterLink to="/login">Back to login</RouterLink>
        </Link>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label="Reset password">
        <Stack gap="5">
          <TextField
            label="New Password"
            type="password"
            autoComplete="new-password"
            autoFocus
            required
            hint={PASSWORD_HINT}
            {...form.field('password')}
          />
          <TextField
            label="Confirm Password"
            type="password"
            autoComplete="new-password"
            required
            {...form.field('confirmPassword')}
          />
          <Button type="submit" size="lg" width="full" loading={resetPassword.isPending} loadingText="Resetting...">
            Reset Password
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

type Phase = 'verifying' | 'form' | 'complete';

function ResetPasswordFlow({ token }: { token: string }) {
  const { data: user, isPending } = useCurrentUser();
  const [phase, setPhase] = useState<Phase>('verifying');

  useEffect(() => {
    const timer = window.setTimeout(() => setPhase('form'), RESET_VERIFY_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (user) return <Navigate to="/dashboard" replace />;
  if (phase === 'complete') return <ResetComplete />;
  if (phase === 'verifying' || isPending) {
    return (
      <AuthLayout title="Reset Password">
        <PageSpinner compact label="Verifying your reset link..." />
      </AuthLayout>
    );
  }
  return <ResetPasswordForm token={token} onDone={() => setPhase('complete')} />;
}

export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  if (!token) return <MissingToken />;
  return <ResetPasswordFlow token={token} />;
}
