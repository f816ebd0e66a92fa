import { Button, HStack, Link, Separator, Stack, Text } from '@chakra-ui/react';
import { PASSWORD_HINT, registerInputSchema } from '@shared/schemas/auth.ts';
import { FcGoogle } from 'react-icons/fc';
import { Link as RouterLink } from 'react-router';
import { TextField } from '@/components/form/text-field';
import { notify } from '@/components/ui/toaster';
import { useZodForm } from '@/hooks/use-zod-form';
import { apiUrl } from '@/lib/api-client';
import { useRegister } from '../api';
import { AuthLayout } from '../components/auth-layout';

function signUpWithGoogle() {
  notify({ title: 'Redirecting to Google', status: 'loading' });
  // A full-page navigation: the api function answers with a redirect to Google's consent screen.
  window.location.assign(apiUrl('/auth/google'));
}

export function SignUpPage() {
  const registration = useRegister();
  const form = useZodForm(registerInputSchema, { username: '', email: '', password: '' });

  const onSubmit = form.handleSubmit((input) => registration.mutate(input));

  return (
    <AuthLayout
      title="Create an Account"
      description="Start tracking your flights and get money back when prices drop."
      footer={
        <>
          Already have an account?{' '}
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to="/login">Log in</RouterLink>
          </Link>
        </>
      }
    >
      <Button variant="outline" size="lg" width="full" onClick={signUpWithGoogle}>
        <FcGoogle aria-hidden="true" />
        Sign up with Gmail
      </Button>

      <HStack gap="3" aria-hidden="true">
        <Separator flex="1" />
        <Text flexShrink="0" fontSize="sm" color="fg.muted">
          or sign up with email
        </Text>
        <Separator flex="1" />
      </HStack>

      <form onSubmit={onSubmit} noValidate aria-label="Create an account">
        <Stack gap="5">
          <TextField label="Username" autoComplete="username" required {...form.field('username')} />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            {...form.field('email')}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            required
            hint={PASSWORD_HINT}
            {...form.field('password')}
          />
          <Button
            type="submit"
            size="lg"
            width="full"
            loading={registration.isPending}
            loadingText="Creating account..."
          >
            Create Account
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
