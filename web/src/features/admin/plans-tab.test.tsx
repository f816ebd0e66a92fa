import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminSubscriptionPlan } from '@shared/types/admin.ts';
import { planKeys } from '@/lib/plans';
import { buildFreePlan, buildPlan } from '@/testing/factories';
import { mockApi, type MockRoute } from '@/testing/mock-api';
import { renderAtPath } from '@/testing/render-at-path';
import { AdminPlansTab } from './plans-tab';

function adminPlan(overrides: Partial<AdminSubscriptionPlan> = {}): AdminSubscriptionPlan {
  return {
    ...buildPlan(),
    isActive: true,
    subscriberCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const free = adminPlan(buildFreePlan());
const premium = adminPlan({ id: 2 });
const legacy = adminPlan({
  id: 3,
  name: 'Legacy',
  price: 999,
  flightLimit: 20,
  autoRebookingEnabled: false,
  commissionRate: 0,
  description: null,
  isActive: false,
});

/** The plans endpoints over one list, as the api keeps them; `overrides` answer instead. */
async function open(overrides: Record<string, MockRoute> = {}) {
  const plans = [free, premium, legacy];
  const api = mockApi({
    'GET /api/admin/subscription-plans': () => ({ body: { plans } }),
    'POST /api/admin/subscription-plans': async (request) => {
      const body = (await request.json()) as Omit<AdminSubscriptionPlan, 'id'>;
      const plan = adminPlan({ ...body, id: plans.length + 1 });
      plans.push(plan);
      return { status: 201, body: { plan } };
    },
    'PUT /api/admin/subscription-plans/2': async (request) => {
      const plan = adminPlan({ ...((await request.json()) as object), id: 2 });
      plans[1] = plan;
      return { body: { plan } };
    },
    ...overrides,
  });
  const rendered = await renderAtPath(<AdminPlansTab />, '/admin?tab=subscription-plans');
  // the public plan list, as the landing page and the Subscription tab hold it
  rendered.queryClient.setQueryData(planKeys.list(), [free, premium]);
  await screen.findByRole('table', { name: 'Subscription Plans' });
  return { api, plans, ...rendered };
}

function row(name: string) {
  const table = screen.getByRole('table', { name: 'Subscription Plans' });
  const found = within(table)
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByText(name, { exact: true }));
  if (!found) throw new Error(`no row for ${name}`);
  return within(found);
}

/**
 * Chakra's number input reads text typed while it has the focus and takes it in a moment later;
 * its aria-valuenow shows the value the form holds.
 */
async function typeNumber(label: string, value: string) {
  const input = screen.getByLabelText(label);
  act(() => input.focus());
  fireEvent.input(input, { target: { value } });
  await waitFor(() => expect(input).toHaveAttribute('aria-valuenow', value));
}

/** Ticks or unticks a checkbox; the form takes the change in a moment later (the root's data-state says when). */
async function toggle(name: string, checked: boolean) {
  const box = screen.getByRole('checkbox', { name });
  fireEvent.click(box);
  const root = box.closest('[data-part="root"]');
  await waitFor(() => expect(root).toHaveAttribute('data-state', checked ? 'checked' : 'unchecked'));
}

const dialog = (name: string) => screen.findByRole('dialog', { name });

describe('admin Plans tab', () => {
  it('shows each plan: ID, name, price, flight limit (Unlimited), feature badges and Edit; inactive ones marked', async () => {
    await open();
    const headers = within(screen.getByRole('table', { name: 'Subscription Plans' })).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      'ID',
      'Name',
      'Price',
      'Flight Limit',
      'Features',
      'Actions',
    ]);

    const premiumRow = row('Premium');
    expect(premiumRow.getByText('2')).toBeInTheDocument();
    expect(premiumRow.getByText('$24.99')).toBeInTheDocument();
    expect(premiumRow.getByText('Unlimited')).toBeInTheDocument();
    for (const badge of ['Auto-Rebooking', '25% Commission', 'Unlimited Flights']) {
      expect(premiumRow.getByText(badge)).toBeInTheDocument();
    }
    expect(premiumRow.getByRole('button', { name: 'Edit Premium' })).toHaveTextContent('Edit');

    const freeRow = row('Free');
    expect(freeRow.getByText('$0.00')).toBeInTheDocument();
    expect(freeRow.getByText('5 Flights')).toBeInTheDocument();
    expect(freeRow.queryByText('Auto-Rebooking')).not.toBeInTheDocument();
    expect(freeRow.queryByText(/Commission/)).not.toBeInTheDocument();
    expect(freeRow.queryByText('Inactive')).not.toBeInTheDocument();

    expect(row('Legacy').getByText('Inactive')).toBeInTheDocument();
    expect(row('Legacy').getByText('20 Flights')).toBeInTheDocument();
  });

  it("adds a plan: 'Plan Created', the list and the public plans reload", async () => {
    const { api, queryClient } = await open();
    fireEvent.click(screen.getByRole('button', { name: 'Add Plan' }));
    const form = within(await dialog('Add Subscription Plan'));
    expect(form.getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(form.getByRole('checkbox', { name: 'Auto-Rebooking Enabled' })).not.toBeChecked();

    fireEvent.change(form.getByLabelText(/^Name/), { target: { value: 'Business' } });
    await typeNumber('Price (cents)', '9900');
    expect(form.getByText('$99.00')).toBeInTheDocument();
    await typeNumber('Flight Limit', '-1');
    await typeNumber('Commission Rate (%)', '20');
    fireEvent.change(form.getByLabelText('Description'), { target: { value: 'For frequent flyers' } });
    await toggle('Auto-Rebooking Enabled', true);
    fireEvent.click(form.getByRole('button', { name: 'Create Plan' }));

    expect(await screen.findByText('Plan Created')).toBeInTheDocument();
    expect(await api.calls('POST /api/admin/subscription-plans')[0]?.json()).toEqual({
      name: 'Business',
      price: 9900,
      flightLimit: -1,
      commissionRate: 20,
      description: 'For frequent flyers',
      autoRebookingEnabled: true,
      isActive: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Business')).toBeInTheDocument();
    expect(row('Business').getByText('20% Commission')).toBeInTheDocument();
    expect(api.calls('GET /api/admin/subscription-plans')).toHaveLength(2);
    expect(queryClient.getQueryState(planKeys.list())?.isInvalidated).toBe(true);
  });

  it("edits a plan in 'Edit Subscription Plan': 'Update Plan' saves, 'Plan Updated', the list reloads", async () => {
    const { api, queryClient } = await open();
    fireEvent.click(row('Premium').getByRole('button', { name: 'Edit Premium' }));
    const form = within(await dialog('Edit Subscription Plan'));
    expect(form.getByLabelText(/^Name/)).toHaveValue('Premium');
    expect(form.getByLabelText('Price (cents)')).toHaveValue('2499');
    expect(form.getByLabelText('Flight Limit')).toHaveValue('-1');
    expect(form.getByLabelText('Commission Rate (%)')).toHaveValue('25');
    expect(form.getByLabelText('Description')).toHaveValue('Unlimited monitoring and automatic rebooking');
    expect(form.getByRole('checkbox', { name: 'Auto-Rebooking Enabled' })).toBeChecked();
    expect(form.getByRole('checkbox', { name: 'Active' })).toBeChecked();

    await typeNumber('Price (cents)', '2999');
    await typeNumber('Flight Limit', '50');
    await toggle('Active', false);
    fireEvent.click(form.getByRole('button', { name: 'Update Plan' }));

    expect(await screen.findByText('Plan Updated')).toBeInTheDocument();
    expect(await api.calls('PUT /api/admin/subscription-plans/2')[0]?.json()).toEqual({
      name: 'Premium',
      price: 2999,
      flightLimit: 50,
      commissionRate: 25,
      description: 'Unlimited monitoring and automatic rebooking',
      autoRebookingEnabled: true,
      isActive: false,
    });
    await waitFor(() => expect(row('Premium').getByText('$29.99')).toBeInTheDocument());
    expect(row('Premium').getByText('50 Flights')).toBeInTheDocument();
    expect(row('Premium').getByText('Inactive')).toBeInTheDocument();
    expect(api.calls('GET /api/admin/subscription-plans')).toHaveLength(2);
    expect(queryClient.getQueryState(planKeys.list())?.isInvalidated).toBe(true);
  });

  it('refuses what the api would refuse, with its words, before any call', async () => {
    const { api } = await open();
    fireEvent.click(screen.getByRole('button', { name: 'Add Plan' }));
    const form = within(await dialog('Add Subscription Plan'));
    await typeNumber('Flight Limit', '0');
    await typeNumber('Commission Rate (%)', '101');
    fireEvent.click(form.getByRole('button', { name: 'Create Plan' }));
    expect(await form.findByText('Name is required')).toBeInTheDocument();
    expect(form.getByText('Price must be a number')).toBeInTheDocument();
    expect(form.getByText('Flight limit must be -1 (unlimited) or from 1 to 100000')).toBeInTheDocument();
    expect(form.getByText('Commission rate must be from 0 to 100 percent')).toBeInTheDocument();
    expect(form.getByLabelText(/^Name/)).toHaveFocus();
    expect(api.calls('POST /api/admin/subscription-plans')).toHaveLength(0);
  });

  it("puts the api's 400 on its field and toasts 'Creation Failed'", async () => {
    await open({
      'POST /api/admin/subscription-plans': {
        status: 400,
        body: {
          message: 'Invalid request',
          errors: [{ field: 'name', message: 'A plan named Premium already exists' }],
        },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add Plan' }));
    const form = within(await dialog('Add Subscription Plan'));
    fireEvent.change(form.getByLabelText(/^Name/), { target: { value: 'Premium' } });
    await typeNumber('Price (cents)', '100');
    await typeNumber('Flight Limit', '3');
    fireEvent.click(form.getByRole('button', { name: 'Create Plan' }));
    expect(await form.findByText('A plan named Premium already exists')).toBeInTheDocument();
    expect(form.getByLabelText(/^Name/)).toHaveAccessibleErrorMessage('A plan named Premium already exists');
    expect(await screen.findByText('Creation Failed')).toBeInTheDocument();
    // the dialog stays open with what was typed
    expect(form.getByLabelText(/^Name/)).toHaveValue('Premium');
  });

  it("toasts 'Update Failed - Failed to update the subscription plan.' when the save fails", async () => {
    await open({ 'PUT /api/admin/subscription-plans/2': { status: 500 } });
    fireEvent.click(row('Premium').getByRole('button', { name: 'Edit Premium' }));
    const form = within(await dialog('Edit Subscription Plan'));
    fireEvent.click(form.getByRole('button', { name: 'Update Plan' }));
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to update the subscription plan.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Subscription Plan' })).toBeInTheDocument();
  });

  it("toasts 'Creation Failed - Failed to create the subscription plan.' when the call fails", async () => {
    await open({ 'POST /api/admin/subscription-plans': { status: 502 } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Plan' }));
    const form = within(await dialog('Add Subscription Plan'));
    fireEvent.change(form.getByLabelText(/^Name/), { target: { value: 'Gold' } });
    await typeNumber('Price (cents)', '100');
    await typeNumber('Flight Limit', '3');
    fireEvent.click(form.getByRole('button', { name: 'Create Plan' }));
    expect(await screen.findByText('Creation Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to create the subscription plan.')).toBeInTheDocument();
  });

  it("says 'Error loading plans - Unable to load subscription plan data. Please try again later.'", async () => {
    mockApi({ 'GET /api/admin/subscription-plans': { status: 500 } });
    await renderAtPath(<AdminPlansTab />, '/admin?tab=subscription-plans');
    expect(await screen.findByText('Error loading plans')).toBeInTheDocument();
    expect(screen.getByText('Unable to load subscription plan data. Please try again later.')).toBeInTheDocument();
  });
});
