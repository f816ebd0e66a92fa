import { DEFAULT_SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_RESPONSE_TIME } from '@shared/constants.ts';

/*
 * Support contact details shown on the public pages. The address is set at
 * build time with VITE_SUPPORT_EMAIL, the web twin of the api's SUPPORT_EMAIL (where contact
 * messages are mailed); both default to support@fareback.app. Set them together when deploying.
 */
export const SUPPORT_EMAIL: string = import.meta.env.VITE_SUPPORT_EMAIL?.trim() || DEFAULT_SUPPORT_EMAIL;
export { SUPPORT_HOURS, SUPPORT_RESPONSE_TIME };
