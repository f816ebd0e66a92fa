import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const contactRouter = new Hono<AppEnv>();
