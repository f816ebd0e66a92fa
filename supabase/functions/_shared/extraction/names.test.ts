import { describe, expect, it } from './testing/harness.ts';
import { familyName, readName } from './names.ts';

describe('readName', () => {
  it.each([
    ['Ms Imogen Thwaite · Frequent Flyer', 'Imogen Thwaite'],
    ['MARISOL QUENNELL SkyMiles #: 926', 'Marisol Quennell'],
    ['VARADARAJAN/NANDINI MS', 'Nandini Varadarajan'],
    ['Mrs Femke DOORNBOS', 'Femke Doornbos'],
    ['Frau Ingeborg Wöhlke', 'Ingeborg Wöhlke'],
    ["LEOPOLD O'NEIL-SMITH. American Airlines", "Leopold O'Neil-Smith"],
    ['SAKURAGI HARUTO MR / SAKURAGI MEI MS', 'Haruto Sakuragi'],
  ])('reads %s', (text, name) => {
    expect(readName(text)?.name).toBe(name);
  });

  it('refuses non-names', () => {
    expect(readName('Facility Charge')).toBeNull();
    expect(readName('PAYMENT SUMMARY')).toBeNull();
    expect(readName('Smith')).toBeNull();
    // a booking-code label on the line under a 'PASSENGER' heading
    expect(readName('RESERVATION CODE')).toBeNull();
  });
});

describe('familyName', () => {
  it('keeps particles', () => {
    expect(familyName('Jan van der Berg')).toBe('van der Berg');
    expect(familyName('Marisol Quennell')).toBe('Quennell');
  });
});

describe('readName with several travellers on one line', () => {
  it('stops at the title of the next traveller', () => {
    expect(readName('Mr Benoit Lavoie Mrs Lea Lavoie')?.name).toBe('Benoit Lavoie');
  });
});
