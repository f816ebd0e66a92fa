// What the app composes into the dashboard route; everything else in this feature is internal.
export { StatsTiles } from './components/stats-tiles';
export { CreditsPanel, FlightsPanel, HistoryPanel } from './components/flight-lists';
export { ManualEntryForm } from './components/manual-entry-form';
export { flightKeys } from './keys';
