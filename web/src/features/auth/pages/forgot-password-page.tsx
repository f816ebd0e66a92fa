import { Alert, Button, Link, Stack, Text } from '@chakra-ui/react';
import { forgotPasswordInputSchema } from '@shared/schemas/auth.ts';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { TextField } from '@/components/form/text-field';
import { notify } from '@/components/ui/toaster';
import { useZodForm } from '@/hooks/use-zod-form';
import { useForgotPassword } from '../api';
import { AuthLayout } from '../components/auth-layout';

export function ForgotPasswordPage() {
  const forgotPassword = useForgotPassword();
  const form = useZodForm(forgotPasswordInputSchema, { email: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = form.handleSubmit((input) => {
    forgotPassword.mutate(input, {
      onSuccess: () => {
        setSentTo(input.email);
        notify({
          title: 'Reset link sent',
          description: 'Check your email: a link to reset your password, or to confirm your address first.',
          status: 'success',
        });
      },
    });
  });

  const backToLogin = (
    <Link asChild color="brand.fg" fontWeight="medium">
      <RouterLink to="/login">Back to login</RouterLink>
    </Link>
  );

  if (sentTo !== null) {
    return (
      <AuthLayout title="Email Sent" footer={backToLogin}>
        <Alert.Root status="success" variant="subtle" borderRadius="md">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Check your inbox</Alert.Title>
            <Alert.Description>
              If an account exists for {sentTo}, we&apos;ve sent it a link. It is a password reset link (it expires in
              one hour), or, if that address has not been confirmed yet, a confirmation link: open it first, then ask
              for a reset again.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <Text color="fg.muted" fontSize="sm">
          Didn&apos;t get it? Check your spam folder, or try a different address.
        </Text>
        <Button
          variant="outline"
          size="lg"
          width="full"
          onClick={() => {
            setSentTo(null);
            form.reset();
          }}
        >
          Try another email
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter the email address of your account and we'll send you a link to reset your password."
      footer={backToLogin}
    >
      <form onSubmit={onSubmit} noValidate aria-label="Request a password reset link">
        <Stack gap="5">
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            autoFocus
            required
            {...form.field('email')}
          />
          <Button type="submit" size="lg" width="full" loading={forgotPassword.isPending} loadingText="Sending...">
            Send Reset Link
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
