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

describe('cabinFromText: cabins, not fares', () => {
  it('reads cabin words and cabin brands', () => {
    expect(cabinFromText('Économie', null)).toBe('Economy');
    expect(cabinFromText('Main Cabin', null)).toBe('Economy');
    expect(cabinFromText('Comfort+', null)).toBe('Economy');
  });

  it('reads no cabin in a fare brand that names none', () => {
    for (const fare of ['Saver', 'Basic', 'Standard', 'Regular', 'Wanna Get Away', 'SMART', 'Core']) {
      expect(cabinFromText(fare, null)).toBeNull();
    }
  });
});
