import { describe, expect, it } from './testing/harness.ts';
import { cabinFromText } from './cabin.ts';

describe('cabinFromText', () => {
  it("maps a bare 'Première' / 'Primera' to First and 'Executiva' to Business", () => {
    expect(cabinFromText('Première', null)).toBe('First');
    expect(cabinFromText('Primera', null)).toBe('First');
    expect(cabinFromText('Classe Executiva', null)).toBe('Business');
    expect(cabinFromText('Première classe', null)).toBe('First');
  });
});
