// The settings calls of the dashboard's Settings tab. Each validates its body with the shared
// schema (the stored limits; 400 names the field and the bound) and calls the service, which
// owns the premium rule. `POST /api/auto-rebooking/execute` is the auto-rebooking engine's.
import { Hono } from 'hono';
import {
  autoRebookingToggleSchema,
  notificationPreferencesSchema,
  priceAlertThresholdsSchema,
  rebookingThresholdsSchema,
} from '../../_shared/schemas/settings.ts';
import type { AppEnv } from '../context.ts';
import { readJson } from '../lib/body.ts';
import {
  toggleAutoRebooking,
  updateNotificationPreferences,
  updatePriceAlertThresholds,
  updateRebookingThresholds,
} from '../services/settings.ts';

export const settingsRouter = new Hono<AppEnv>()
  .post('/auto-rebooking/toggle', async (c) => {
    const { enabled } = await readJson(c, autoRebookingToggleSchema);
    return c.json(await toggleAutoRebooking(c.var.deps, c.var.claims, enabled));
  })
  .post('/auto-rebooking/thresholds', async (c) => {
    const input = await readJson(c, rebookingThresholdsSchema);
    return c.json(await updateRebookingThresholds(c.var.deps, c.var.claims, input));
  })
  .post('/notifications/preferences', async (c) => {
    const input = await readJson(c, notificationPreferencesSchema);
    return c.json(await updateNotificationPreferences(c.var.deps, c.var.claims, input));
  })
  .post('/price-alerts/thresholds', async (c) => {
    const input = await readJson(c, priceAlertThresholdsSchema);
    return c.json(await updatePriceAlertThresholds(c.var.deps, c.var.claims, input));
  });
