// Corpora written apart from the development corpus to catch overfitting (testing/holdout*), and
// the repository's own development corpus (testing/development: the kinds real mail showed the
// engine missing, written with the engine, their truth stating the party). `holdout` was written
// after reading the engine; each `holdout-blind*` was written from the README and the development
// corpus only, without reading the engine, measured, and only then used to fix general
// weaknesses. Every corpus must keep its field-level F1 and produce no false booking; the counts
// guard against a corpus silently losing its emails or its negatives.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from './testing/harness.ts';
import { scoreCorpus } from './testing/score-corpus.ts';

const testing = join(dirname(fileURLToPath(import.meta.url)), 'testing');

const corpora = [
  {
    // low-cost passenger receipts, GDS itineraries (plain and <pre>), bilingual ticket tables,
    // mail stating no cabin, fare brands beside the fare, parties counted beyond the names
    name: 'development',
    minEmails: 8,
    minNegatives: 1,
    minF1: 1,
  },
  {
    // other airlines, labels, date and number formats than the development corpus
    name: 'holdout',
    minEmails: 30,
    minNegatives: 8,
    minF1: 0.95,
  },
  {
    // real-world layouts and encodings; agency trips; seat and bag receipts, carts, cancellations
    name: 'holdout-blind',
    minEmails: 24,
    minNegatives: 8,
    minF1: 0.95,
  },
  {
    // labels and values in separate rows, section-header dates, '7:05a' / '19.05' / '0950' times,
    // FAMILY/GIVEN names, '$' meaning CAD/AUD/MXN/CLP, 11 negatives (sale, hotel, car, ESTA, rail...)
    name: 'holdout-blind-2',
    minEmails: 30,
    minNegatives: 10,
    minF1: 0.95,
  },
  {
    // a sibling of each dev kind: JSON-LD, microdata, airline HTML, receipts, DE/FR/ES, forwards,
    // schedule changes, an agency fee, 6 tempting negatives
    name: 'holdout-blind-3',
    minEmails: 30,
    minNegatives: 6,
    minF1: 0.95,
  },
  {
    // fare brands in many forms, passenger layouts, Spanish double surnames, seats, totals
    name: 'holdout-blind-4',
    minEmails: 24,
    minNegatives: 5,
    minF1: 0.95,
  },
  {
    // weighted to 16 tempting negatives: lounge pass, parking, price alert, discount 'Buchungscode'...
    name: 'holdout-blind-5',
    minEmails: 27,
    minNegatives: 16,
    minF1: 0.97,
  },
  {
    // siblings of each dev kind (Outlook forward, 8-bit Latin-1 German, date-line crossing) and 8
    // new negatives: boarding pass, search reminder, Wi-Fi receipt, cruise, quote, travel credit...
    name: 'holdout-blind-6',
    minEmails: 16,
    minNegatives: 8,
    minF1: 0.99,
  },
];

describe('holdout corpora', () => {
  for (const corpus of corpora) {
    it(`${corpus.name}: field-level F1 >= ${corpus.minF1} with no false booking`, async () => {
      const score = await scoreCorpus(join(testing, corpus.name));
      expect(score.emails).toBeGreaterThanOrEqual(corpus.minEmails);
      expect(score.negatives).toBeGreaterThanOrEqual(corpus.minNegatives);
      expect(score.falseBookings).toBe(0);
      expect(score.f1).toBeGreaterThanOrEqual(corpus.minF1);
    }, 30_000);
  }
});
