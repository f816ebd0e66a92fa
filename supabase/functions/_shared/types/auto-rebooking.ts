// Automatic rebooking as the api answers it. Money is integer cents.

/** `POST /api/auto-rebooking/execute`: the caller's own run. */
export interface ExecuteAutoRebookingResponse {
  message: string;
  /** Flights rebooked by this run. */
  count: number;
}

/** `POST /api/admin/run-auto-rebooking`: a run over every premium traveller with auto-rebooking on. */
export interface RunAutoRebookingResponse {
  rebookedCount: number;
  /** Net savings of the flights rebooked (the credit they brought back), cents. */
  savingsAmount: number;
}

/** The refusals of execute: `message` and `details`, as the spec words them. */
export interface AutoRebookingRefusal {
  message: string;
  details: string;
}
