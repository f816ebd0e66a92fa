import { describe, expect, it } from './testing/harness.ts';
import { familyName, mergeTravellers, readName } from './names.ts';

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

describe('readName: reservation forms and brand words', () => {
  it('keeps every given name of the FAMILY/GIVEN MIDDLE TITLE form', () => {
    expect(readName('TAN/RACHEL MEI LING MS')?.name).toBe('Rachel Mei Ling Tan');
    expect(readName('SMITH-JONES/EVELYN MARIE MS')?.name).toBe('Evelyn Marie Smith-Jones');
    expect(readName('KHAN/ZAIN MSTR(CHD)')?.name).toBe('Zain Khan');
  });

  it('ends a name at a brand word with an inner capital', () => {
    expect(readName("Mr. Liam O'Neil WestJet Rewards ID")?.name).toBe("Liam O'Neil");
    expect(readName('Mr Angus McDonald')?.name).toBe('Angus McDonald');
  });
});

describe('familyName: Spanish double surnames', () => {
  it('keeps a Spanish first surname with the last one', () => {
    expect(familyName('Javier Ruiz Montalbán')).toBe('Ruiz Montalbán');
    expect(familyName('María José Ortega Villalobos')).toBe('Ortega Villalobos');
    expect(familyName('Lucía Ortiz de Zárate')).toBe('Ortiz de Zárate');
    expect(familyName('Mary Ann Whitfield')).toBe('Whitfield');
    expect(familyName('Ana Ruiz')).toBe('Ruiz');
    expect(familyName('Rocío Valdés Ortuño')).toBe('Valdés Ortuño');
    expect(familyName('John Martin Smith')).toBe('Smith');
  });
});

describe('mergeTravellers', () => {
  it('keeps one person printed in different forms, the first spelling first', () => {
    expect(mergeTravellers(['John Smith'], ['SMITH/JOHN MR', 'Mr John Smith', 'JOHN SMITH'])).toEqual(['John Smith']);
    expect(mergeTravellers(['Ingeborg Wöhlke'], ['WOEHLKE/INGEBORG MRS', 'WOHLKE/INGEBORG'])).toEqual([
      'Ingeborg Wöhlke',
    ]);
    expect(mergeTravellers(["Liam O'Neil-Smith"], ['ONEILSMITH/LIAM'])).toEqual(["Liam O'Neil-Smith"]);
    expect(mergeTravellers(['Jan van der Berg'], ['VANDERBERG/JAN'])).toEqual(['Jan van der Berg']);
  });

  it('reads a barcode name cut short or with its title glued on as the person', () => {
    // the 20-character name field of a boarding pass
    expect(mergeTravellers(['Alexandra Fitzwilliams'], ['FITZWILLIAMS/ALEXAND'])).toEqual(['Alexandra Fitzwilliams']);
    expect(mergeTravellers(['Wilhelmina Ravenscroft-Hollingsworth'], ['RAVENSCROFTHOLLIN/WI'])).toEqual([
      'Wilhelmina Ravenscroft-Hollingsworth',
    ]);
    expect(mergeTravellers(['John Smith'], ['SMITH/JOHNMR', 'SMITH/J'])).toEqual(['John Smith']);
    expect(mergeTravellers(['John Michael Smith', 'John Smith'])).toEqual(['John Michael Smith']);
    expect(mergeTravellers(['John Smith', 'Smith John'])).toEqual(['John Smith']);
  });

  it('keeps different people of one family apart', () => {
    expect(mergeTravellers(['John Smith', 'Jane Smith'], ['SMITH/JOHNNY MSTR'])).toEqual([
      'John Smith',
      'Jane Smith',
      'Johnny Smith',
    ]);
    expect(mergeTravellers(['John Smith'], ['SMITHSON/JOHN MR'])).toEqual(['John Smith', 'John Smithson']);
  });

  it('drops what is not a name and keeps a name that is also a word', () => {
    expect(mergeTravellers(['Jane Gold', '', 'Smith', 'PAYMENT SUMMARY'])).toEqual(['Jane Gold']);
  });
});
