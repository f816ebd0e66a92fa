import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PASSWORD_STRENGTH_MESSAGE } from '@shared/schemas/auth.ts';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { buildSession } from '@/testing/session';

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('login page', () => {
  it('requires username and password and sends nothing until both are given', async () => {
    const api = mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Log In' }));

    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Username')).toHaveFocus();
    expect(api.calls('POST /api/auth/login')).toHaveLength(0);

    type('Username', 'ada');
    await waitFor(() => expect(screen.queryByText('Username is required')).not.toBeInTheDocument());
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('links to the password reset and sign-up pages', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/sign-up');
  });

  it("toasts 'Login failed' with the server's message", async () => {
    mockApi({
      'GET /api/auth/me': meRoute(null),
      'POST /api/auth/login': { status: 401, body: { message: 'Invalid username or password' } },
    });
    const { router } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Welcome back' });
    type('Username', 'ada');
    type('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));

    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    // the reason stays under the form as well as in the toast
    const form = screen.getByRole('form', { name: 'Log in' });
    expect(within(form).getByText('Invalid username or password')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('signs in: hands the session to supabase-js, toasts, and goes to /dashboard', async () => {
    const user = buildUser({ username: 'ada' });
    let signedIn = false;
    const api = mockApi({
      'GET /api/auth/me': () => meRoute(signedIn ? user : null),
      'POST /api/auth/login': () => {
        signedIn = true;
        return { body: { user, session: buildSession(user.id) } };
      },
      'GET /auth/v1/user': { body: { id: user.id, aud: 'authenticated', email: user.email } },
    });
    const { router } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Welcome back' });
    type('Username', 'ada');
    type('Password', 'Secret1!');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));

    expect(await screen.findByText('Login successful')).toBeInTheDocument();
    expect(screen.getByText('Welcome back to FareBack!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Flight Savings Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');

    const [login] = api.calls('POST /api/auth/login');
    expect(await login?.json()).toEqual({ username: 'ada', password: 'Secret1!' });
    // Later calls carry the access token supabase-js now holds.
    await waitFor(() =>
      expect(api.calls('GET /api/auth/me').some((r) => r.headers.get('Authorization')?.startsWith('Bearer '))).toBe(
        true,
      ),
    );
  });
});

describe('sign-up page', () => {
  it('requires every field and enforces the password rule', async () => {
    const api = mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/sign-up');
    await screen.findByRole('heading', { name: 'Create an Account' });
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(
      screen.getByText('At least 8 characters with uppercase, lowercase, number and special character (@$!%*?&).'),
    ).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters long')).toBeInTheDocument();

    type('Username', 'ada');
    type('Email', 'not-an-email');
    type('Password', 'password123');
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_STRENGTH_MESSAGE)).toBeInTheDocument();

    type('Password', 'Password123');
    expect(screen.getByText(PASSWORD_STRENGTH_MESSAGE)).toBeInTheDocument();
    type('Password', 'Password123!');
    await waitFor(() => expect(screen.queryByText(PASSWORD_STRENGTH_MESSAGE)).not.toBeInTheDocument());
    expect(api.calls('POST /api/auth/register')).toHaveLength(0);
  });

  it('registers, toasts the welcome and goes straight to /onboarding, never through /dashboard', async () => {
    const user = buildUser({ username: 'ada', email: 'ada@example.com', onboardingCompleted: false });
    let registered = false;
    const api = mockApi({
      'GET /api/auth/me': () => meRoute(registered ? user : null),
      'POST /api/auth/register': () => {
        registered = true;
        return { status: 201, body: { user, session: buildSession(user.id) } };
      },
      'GET /auth/v1/user': { body: { id: user.id, aud: 'authenticated', email: user.email } },
    });
    const { router } = renderApp('/sign-up');
    const push = vi.spyOn(router.history, 'push');
    const replace = vi.spyOn(router.history, 'replace');
    await screen.findByRole('heading', { name: 'Create an Account' });
    type('Username', 'ada');
    type('Email', 'Ada@Example.com');
    type('Password', 'Password123!');
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Registration successful')).toBeInTheDocument();
    expect(
      screen.getByText('Welcome to FareBack! Now connect your email to start monitoring your flights.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding'));
    const targets = [...push.mock.calls, ...replace.mock.calls].map(([to]) =>
      typeof to === 'string' ? to : to.pathname,
    );
    expect(targets).not.toContain('/dashboard');
    const [request] = api.calls('POST /api/auth/register');
    expect(await request?.json()).toEqual({
      username: 'ada',
      email: 'ada@example.com',
      password: 'Password123!',
    });
  });

  it("toasts 'Registration failed' with the server's message", async () => {
    mockApi({
      'GET /api/auth/me': meRoute(null),
      'POST /api/auth/register': { status: 409, body: { message: 'Username is already taken' } },
    });
    renderApp('/sign-up');
    await screen.findByRole('heading', { name: 'Create an Account' });
    type('Username', 'ada');
    type('Email', 'ada@example.com');
    type('Password', 'Password123!');
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Registration failed')).toBeInTheDocument();
    expect(screen.getByText('Username is already taken')).toBeInTheDocument();
  });
});

describe('forgot password page', () => {
  it('validates the email, then shows the sent view and returns to the form', async () => {
    const api = mockApi({
      'GET /api/auth/me': meRoute(null),
      'POST /api/auth/forgot-password': { body: { message: 'If the account exists, we sent a link' } },
    });
    renderApp('/forgot-password');
    await screen.findByRole('button', { name: 'Send Reset Link' });
    type('Email', 'nope');
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(api.calls('POST /api/auth/forgot-password')).toHaveLength(0);

    type('Email', 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('heading', { name: 'Email Sent' })).toBeInTheDocument();
    expect(await screen.findByText('Reset link sent')).toBeInTheDocument();
    // true to what is sent: an unconfirmed address gets its confirmation link instead
    expect(screen.getByText(/or, if that address has not been confirmed yet, a confirmation link/)).toBeInTheDocument();
    expect(
      screen.getByText('Check your email: a link to reset your password, or to confirm your address first.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');

    fireEvent.click(screen.getByRole('button', { name: 'Try another email' }));
    expect(await screen.findByRole('button', { name: 'Send Reset Link' })).toBeInTheDocument();
  });

  it("toasts 'Error' with the fallback text when the server gives no message", async () => {
    mockApi({
      'GET /api/auth/me': meRoute(null),
      'POST /api/auth/forgot-password': { status: 500 },
    });
    renderApp('/forgot-password');
    type('Email', (await screen.findByLabelText('Email')) && 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Failed to send password reset email')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });
});

describe('reset password page', () => {
  it("without a token says 'Missing token' and goes to /forgot-password after 2 s", async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    const { router } = renderApp('/reset-password');
    expect(
      (await screen.findAllByText('Invalid password reset link. Please request a new one.'))[0],
    ).toBeInTheDocument();
    expect(screen.getAllByText('Missing token')[0]).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reset-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'), {
      timeout: 3000,
    });
  });

  it('sends a signed-in user to /dashboard', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser()) });
    const { router } = renderApp('/reset-password?token=abc');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('verifies for a second, then validates length, strength and confirmation', async () => {
    const api = mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/reset-password?token=abc');
    expect(await screen.findByText('Verifying your reset link...')).toBeInTheDocument();
    const submit = await screen.findByRole('button', { name: 'Reset Password' }, { timeout: 2000 });

    type('New Password', 'Short1!');
    type('Confirm Password', 'Short1!');
    fireEvent.click(submit);
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeInTheDocument();

    type('New Password', `Aa1!${'x'.repeat(97)}`);
    expect(await screen.findByText('Password must be less than 100 characters')).toBeInTheDocument();

    type('New Password', 'Password123!');
    type('Confirm Password', 'Password123?');
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('New Password')).not.toHaveAttribute('aria-invalid', 'true');
    expect(api.calls('POST /api/auth/reset-password')).toHaveLength(0);
  });

  it('resets the password, shows the complete view and goes to /login after 2 s', async () => {
    const api = mockApi({
      'GET /api/auth/me': meRoute(null),
      'POST /api/auth/reset-password': { body: { message: 'Password updated' } },
    });
    const { router } = renderApp('/reset-password?token=tok-123');
    const submit = await screen.findByRole('button', { name: 'Reset Password' }, { timeout: 2000 });
    type('New Password', 'Password123!');
    type('Confirm Password', 'Password123!');
    fireEvent.click(submit);

    expect(await screen.findByRole('heading', { name: 'Password Reset Complete' })).toBeInTheDocument();
    expect(screen.getByText('Password reset successful')).toBeInTheDocument();
    const [request] = api.calls('POST /api/auth/reset-password');
    expect(await request?.json()).toEqual({ token: 'tok-123', password: 'Password123!' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 3000 });
  });

  it("toasts 'Failed to reset password' with the server's message", async () => {
    mockApi({
      'GET /api/auth/me': meRoute(null),
      'POST /api/auth/reset-password': { status: 400, body: { message: 'Reset link has expired' } },
    });
    renderApp('/reset-password?token=old');
    const submit = await screen.findByRole('button', { name: 'Reset Password' }, { timeout: 2000 });
    type('New Password', 'Password123!');
    type('Confirm Password', 'Password123!');
    fireEvent.click(submit);
    expect(await screen.findByText('Failed to reset password')).toBeInTheDocument();
    expect(screen.getByText('Reset link has expired')).toBeInTheDocument();
  });
});
