import { useMutation } from '@tanstack/react-query';
import type { ContactInput, ContactResponse } from '@shared/schemas/contact.ts';
import { ApiError, apiRequest } from '@/lib/api-client';

export function sendContactMessage(input: ContactInput): Promise<ContactResponse> {
  return apiRequest<ContactResponse>('POST', '/contact', input);
}

/**
 * The description of the 'Error' toast: the server's message when it sent one
 * (validation, rate limit), 'Failed to send message' for a refusal without one, and 'An error
 * occurred while sending your message' when the request never got an answer.
 */
export function contactErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? 'Failed to send message';
  return 'An error occurred while sending your message';
}

/** POST /api/contact. No meta.errorTitle: the page shows its own toasts (see above). */
export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
