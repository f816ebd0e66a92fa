import { Button, Stack } from '@chakra-ui/react';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { UNREADABLE_MONEY, useZodForm } from '@/hooks/use-zod-form';
import { ApiError } from '@/lib/api-client';
import { renderWithProviders } from '@/testing/render-with-providers';
import { MoneyField } from './money-field';
import { NumberField } from './number-field';
import { SelectField } from './select-field';
import { SliderField } from './slider-field';
import { SwitchField } from './switch-field';
import { TextField } from './text-field';

// A settings-like request: every kind of field the kit offers, money in cents.
const preferencesSchema = z.strictObject({
  nickname: z.string().trim().min(1, { error: 'Nickname is required' }),
  plan: z.enum(['free', 'premium'], { error: 'Choose a plan' }),
  autoRebook: z.boolean(),
  threshold: z.number().int().min(5, { error: 'Threshold must be at least 5%' }).max(50),
  maxFlights: z
    .number({ error: 'Max flights must be a number' })
    .int()
    .min(1, { error: 'Max flights must be at least 1' }),
  budget: z
    .number({ error: 'Budget is required' })
    .int()
    .min(0, { error: 'Budget cannot be negative' })
    .max(100_000_00, { error: 'Budget is too large' }),
});
type Preferences = z.output<typeof preferencesSchema>;

function PreferencesForm({ save }: { save: (input: Preferences) => Promise<unknown> }) {
  const form = useZodForm(preferencesSchema, { nickname: '', plan: undefined, autoRebook: false, threshold: 10 });
  const onSubmit = form.handleSubmit((input) => {
    save(input).catch(form.showServerErrors);
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Preferences">
      <Stack gap="4">
        <TextField label="Nickname" hint="Shown on your dashboard" {...form.field('nickname')} />
        <SelectField
          label="Plan"
          placeholder="Select a plan"
          options={[
            { value: 'free', label: 'Free' },
            { value: 'premium', label: 'Premium' },
          ]}
          {...form.field('plan')}
        />
        <SwitchField
          label="Rebook automatically"
          hint="We rebook when the saving passes the threshold"
          {...form.switchField('autoRebook')}
        />
        <SliderField
          label="Threshold"
          min={0}
          max={50}
          step={5}
          formatValue={(value) => `${value}%`}
          hint="The smallest price drop worth acting on"
          {...form.sliderField('threshold')}
        />
        <NumberField label="Max flights" min={1} {...form.numberField('maxFlights')} />
        <MoneyField label="Budget ($)" hint="The most we may spend for you each month" {...form.moneyField('budget')} />
        <Button type="submit">Save</Button>
      </Stack>
    </form>
  );
}

function renderForm(save: (input: Preferences) => Promise<unknown> = () => Promise.resolve()) {
  const spy = vi.fn(save);
  renderWithProviders(<PreferencesForm save={spy} />);
  return spy;
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

async function fillValid() {
  fireEvent.change(screen.getByLabelText('Nickname'), { target: { value: 'Sam' } });
  fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'premium' } });
  // The number field reads input events typed while it has the focus, and takes them in a
  // moment later; its aria-valuenow shows the value the form holds.
  const maxFlights = screen.getByLabelText('Max flights');
  act(() => maxFlights.focus());
  fireEvent.input(maxFlights, { target: { value: '3' } });
  await waitFor(() => expect(maxFlights).toHaveAttribute('aria-valuenow', '3'));
  fireEvent.change(screen.getByLabelText('Budget ($)'), { target: { value: '$1,234.50' } });
}

describe('the form kit', () => {
  it('labels every field and ties its hint to it', () => {
    renderForm();
    expect(screen.getByLabelText('Nickname')).toHaveAccessibleDescription('Shown on your dashboard');
    expect(screen.getByRole('combobox', { name: 'Plan' })).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Rebook automatically' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Rebook automatically' })).toHaveAccessibleDescription(
      'We rebook when the saving passes the threshold',
    );
    const slider = screen.getByRole('slider', { name: 'Threshold' });
    expect(slider).toHaveAttribute('aria-valuenow', '10');
    expect(slider).toHaveAttribute('aria-valuetext', '10%');
    expect(slider).toHaveAccessibleDescription('The smallest price drop worth acting on');
    expect(screen.getByLabelText('Max flights')).toHaveValue('');
    expect(screen.getByLabelText('Budget ($)')).toHaveAttribute('inputmode', 'decimal');
  });

  it("shows the schema's messages on their fields, focuses the first and sends nothing", async () => {
    const spy = renderForm();
    save();
    expect(await screen.findByText('Nickname is required')).toBeInTheDocument();
    expect(screen.getByText('Choose a plan')).toBeInTheDocument();
    expect(screen.getByText('Max flights must be a number')).toBeInTheDocument();
    expect(screen.getByText('Budget is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Nickname')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Budget ($)')).toHaveAccessibleDescription('The most we may spend for you each month');
    expect(screen.getByLabelText('Budget ($)')).toHaveAccessibleErrorMessage('Budget is required');
    await waitFor(() => expect(screen.getByLabelText('Nickname')).toHaveFocus());
    expect(spy).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Nickname'), { target: { value: 'Sam' } });
    await waitFor(() => expect(screen.queryByText('Nickname is required')).not.toBeInTheDocument());
    expect(screen.getByText('Choose a plan')).toBeInTheDocument();
  });

  it('sends the request shape: switch and slider values, a number, and money in cents', async () => {
    const spy = renderForm();
    await fillValid();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Rebook automatically' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Rebook automatically' })).toBeChecked());
    const slider = screen.getByRole('slider', { name: 'Threshold' });
    act(() => slider.focus());
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    await waitFor(() => expect(slider).toHaveAttribute('aria-valuetext', '15%'));
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    await waitFor(() => expect(slider).toHaveAttribute('aria-valuetext', '20%'));
    save();
    await waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
    expect(spy).toHaveBeenCalledWith({
      nickname: 'Sam',
      plan: 'premium',
      autoRebook: true,
      threshold: 20,
      maxFlights: 3,
      budget: 123450,
    });
  });

  it('tells apart an unreadable amount from a missing one, and shows a readable one with cents', async () => {
    const spy = renderForm();
    await fillValid();
    const budget = screen.getByLabelText('Budget ($)');
    fireEvent.change(budget, { target: { value: '0.005' } });
    save();
    expect(await screen.findByText(UNREADABLE_MONEY)).toBeInTheDocument();
    await waitFor(() => expect(budget).toHaveFocus());
    fireEvent.change(budget, { target: { value: 'twelve' } });
    expect(screen.getByText(UNREADABLE_MONEY)).toBeInTheDocument();
    fireEvent.change(budget, { target: { value: '-5' } });
    expect(await screen.findByText('Budget cannot be negative')).toBeInTheDocument();
    fireEvent.change(budget, { target: { value: '12.5' } });
    fireEvent.blur(budget);
    await waitFor(() => expect(budget).toHaveValue('12.50'));
    expect(screen.queryByText('Budget cannot be negative')).not.toBeInTheDocument();
    expect(spy).not.toHaveBeenCalled();
    save();
    await waitFor(() => expect(spy).toHaveBeenCalledWith(expect.objectContaining({ budget: 1250 })));
  });

  it("puts the api's per-field errors on their fields until each is edited", async () => {
    const body = {
      message: 'Budget is too large; Nickname is taken',
      errors: [
        { field: 'budget', message: 'Budget is too large' },
        { field: 'nickname', message: 'Nickname is taken' },
        { field: 'referrer', message: 'Referrer is unknown' },
      ],
    };
    renderForm(() => Promise.reject(new ApiError(400, 'Bad Request', JSON.stringify(body))));
    await fillValid();
    save();
    expect(await screen.findByText('Budget is too large')).toBeInTheDocument();
    expect(screen.getByText('Nickname is taken')).toBeInTheDocument();
    // a field the form does not show is left to the toast
    expect(screen.queryByText('Referrer is unknown')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Budget ($)')).toHaveAttribute('aria-invalid', 'true');
    // the first invalid field in the page's order takes the focus
    await waitFor(() => expect(screen.getByLabelText('Nickname')).toHaveFocus());

    fireEvent.change(screen.getByLabelText('Nickname'), { target: { value: 'Samantha' } });
    await waitFor(() => expect(screen.queryByText('Nickname is taken')).not.toBeInTheDocument());
    expect(screen.getByText('Budget is too large')).toBeInTheDocument();
  });

  it('leaves other failures to the error toast', async () => {
    const failures = [
      new ApiError(409, 'Conflict', JSON.stringify({ message: 'Busy' })),
      new ApiError(400, 'Bad Request', JSON.stringify({ message: 'Request body must be a JSON object' })),
      new Error('offline'),
    ];
    for (const failure of failures) {
      let shown: boolean | undefined;
      function Probe() {
        const form = useZodForm(z.object({ nickname: z.string() }), { nickname: 'Sam' });
        return (
          <form
            aria-label="Probe"
            onSubmit={form.handleSubmit(() => {
              shown = form.showServerErrors(failure);
            })}
          >
            <TextField label="Nickname" {...form.field('nickname')} />
            <Button type="submit">Send</Button>
          </form>
        );
      }
      const view = renderWithProviders(<Probe />);
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
      expect(shown).toBe(false);
      expect(screen.getByLabelText('Nickname')).not.toHaveAttribute('aria-invalid');
      view.unmount();
    }
  });
});
