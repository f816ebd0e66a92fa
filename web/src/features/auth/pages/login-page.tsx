import { Alert, Button, Flex, Link, Stack } from '@chakra-ui/react';
import { loginInputSchema } from '@shared/schemas/auth.ts';
import { Link as RouterLink } from 'react-router';
import { TextField } from '@/components/form/text-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { errorMessage } from '@/lib/api-client';
import { useLogin } from '../api';
import { AuthLayout } from '../components/auth-layout';

export function LoginPage() {
  const login = useLogin();
  const form = useZodForm(loginInputSchema, { username: '', password: '' });

  const onSubmit = form.handleSubmit((input) => login.mutate(input));

  return (
    <AuthLayout
      title="Welcome back"
      description="Log in to keep an eye on your flights and savings."
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to="/sign-up">Sign up</RouterLink>
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label="Log in">
        <Stack gap="5">
          <TextField label="Username" autoComplete="username" autoFocus required {...form.field('username')} />
          <Stack gap="2">
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              required
              {...form.field('password')}
            />
            <Flex justify="flex-end">
              <Link asChild fontSize="sm" color="brand.fg">
                <RouterLink to="/forgot-password">Forgot password?</RouterLink>
              </Link>
            </Flex>
          </Stack>
          <Button type="submit" size="lg" width="full" loading={login.isPending} loadingText="Logging in...">
            Log In
          </Button>
          {/* the toast fades; the reason stays under the form until the next attempt */}
          {login.isError && (
            <Alert.Root status="error" variant="subtle" borderRadius="md">
              <Alert.Indicator />
              <Alert.Description>{errorMessage(login.error, 'Invalid username or password')}</Alert.Description>
            </Alert.Root>
          )}
        </Stack>
      </form>
    </AuthLayout>
  );
}
