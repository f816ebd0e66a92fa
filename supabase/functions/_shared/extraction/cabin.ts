// Cabin words in English, German, French, Spanish, Swedish, Dutch and Italian, and airline cabin brands, mapped to the
// four cabins. Premium economy is tested before economy and business because its names contain
// both ('United Premium Plus (premium economy)', 'Economy Premium').
import type { AirlineProfile } from './airlines.ts';
import type { CabinClass } from './types.ts';

const CABIN_PATTERNS: [RegExp, CabinClass][] = [
  [
    /premium[\s-]*(economy|eco\b|plus|select|comfort)|economy\s+premium|[ée]conomie\s+premium|premium\s+[ée]conomie|turista\s+premium|world traveller plus/i,
    'Premium Economy',
  ],
  [
    /premium\s+business|\bbusiness\b|\bbusiness\s*class|\bclub (world|europe|suite)|upper class|polaris|delta one|affaires|ejecutiva|executiva|\bbiz\b|executive class|signature class|business\s*klass/i,
    'Business',
  ],
  [
    /\bfirst\s+(class|suite)\b|^\s*first\s*$|premi[èe]re classe|\bla premi[èe]re\b|\bprimera clase\b|erste klasse|primeira classe|f[öo]rsta klass|eerste klas|prima classe|^\s*(?:premi[èe]re|primera|primeira)\s*$/i,
    'First',
  ],
  [/\bpremium\b/i, 'Premium Economy'],
  [/[eé]conom|ekonomi|\bcoach\b|main cabin|\bturista\b|touriste|\bcomfort\+|\beco\b/i, 'Economy'],
];

/** The cabin a piece of text names, or null when it names none. */
export function cabinFromText(text: string, airline: AirlineProfile | null): CabinClass | null {
  for (const [pattern, cabin] of airline?.cabinNames ?? []) if (pattern.test(text)) return cabin;
  let best: { index: number; cabin: CabinClass } | null = null;
  for (const [pattern, cabin] of CABIN_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    // Premium economy wins wherever it appears; otherwise the first cabin word printed.
    if (cabin === 'Premium Economy' && pattern === CABIN_PATTERNS[0]?.[0]) return cabin;
    if (!best || match.index < best.index) best = { index: match.index, cabin };
  }
  return best?.cabin ?? null;
}
