// Airline names compared the way travellers write them: 'Delta Air Lines', 'Delta' and 'DELTA'
// are one airline, so the words every airline name carries are dropped before comparing.
export function normalizeAirlineName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\b(airlines?|airways|air lines|air)\b/g, '')
    .replace(/[^a-z]/g, '');
}
