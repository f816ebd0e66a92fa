import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillValidMessage() {
  type('Name', 'Grace Hopper');
  type('Email', 'grace@example.com');
  type('Subject', 'Credit expiry');
  type('Message', 'When does my airline credit expire?');
}

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));

describe('contact page', () => {
  it("shows the spec's message for each field and sends nothing", async () => {
    const api = mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });
    type('Name', 'G');
    type('Email', 'not-an-email');
    type('Subject', 'Hi');
    type('Message', 'Short');
    send();
    expect(await screen.findByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Subject must be at least 5 characters')).toBeInTheDocument();
    expect(screen.getByText('Message must be at least 10 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveFocus();
    expect(api.calls('POST /api/contact')).toHaveLength(0);
  });

  it("sends the message, toasts 'Message Sent' and clears the form", async () => {
    const api = mockApi({
      'GET /api/auth/me': meRoute(null),
      'POST /api/contact': { status: 201, body: { message: 'Thank you' } },
    });
    renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });
    fillValidMessage();
    send();
    expect(await screen.findByText('Message Sent')).toBeInTheDocument();
    expect(screen.getByText("We've received your message and will get back to you shortly.")).toBeInTheDocument();
    for (const label of ['Name', 'Email', 'Subject', 'Message']) expect(screen.getByLabelText(label)).toHaveValue('');
    const [request] = api.calls('POST /api/contact');
    expect(await request?.json()).toEqual({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      subject: 'Credit expiry',
      message: 'When does my airline credit expire?',
    });
  });

  it("toasts 'Error' with the server's message, else 'Failed to send message', and keeps the form", async () => {
    let answer = { status: 429, body: { message: 'Please wait 10 minutes before sending another.' } as unknown };
    mockApi({ 'GET /api/auth/me': meRoute(null), 'POST /api/contact': () => answer });
    renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });
    fillValidMessage();
    send();
    expect(await screen.findByText('Please wait 10 minutes before sending another.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByLabelText('Subject')).toHaveValue('Credit expiry');

    answer = { status: 502, body: undefined };
    send();
    expect(await screen.findByText('Failed to send message')).toBeInTheDocument();
  });

  it('prefills name and email for a signed-in traveller, also after sending', async () => {
    const user = buildUser({ username: 'ada', email: 'ada@example.com' });
    mockApi({
      'GET /api/auth/me': meRoute(user),
      'POST /api/contact': { status: 201, body: { message: 'Thank you' } },
    });
    renderApp('/contact');
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('ada'));
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    type('Subject', 'Credit expiry');
    type('Message', 'When does my airline credit expire?');
    send();
    expect(await screen.findByText('Message Sent')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('ada');
    expect(screen.getByLabelText('Subject')).toHaveValue('');
  });

  it('shows the support address, hours and response time', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/contact');
    expect(await screen.findByRole('link', { name: 'support@fareback.app' })).toHaveAttribute(
      'href',
      'mailto:support@fareback.app',
    );
    expect(screen.getByText('Monday to Friday 9am-5pm EST')).toBeInTheDocument();
    expect(screen.getByText('Closed at weekends')).toBeInTheDocument();
    expect(screen.getByText('We reply within 24-48 business hours.')).toBeInTheDocument();
  });
});
