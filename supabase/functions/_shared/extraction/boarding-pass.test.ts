// Boarding-pass barcode text (IATA BCBP): names, the booking code, flights and airports.
import { describe, expect, it } from './testing/harness.ts';
import { findBoardingPasses } from './boarding-pass.ts';
import { extractHtml, extractText } from './testing/extract.ts';

const ONE_LEG = 'M1SOLBERG/MINA MS     EQZP4TW FRABERLH 0180 080Y012A0023 100';
const TWO_LEGS =
  'M2SOLBERG/PER         EQZP4TW FRABERLH 0180 080Y012B0024 14B>50B0  0080BLH 0           QZP4TW BERFRALH 0191 085Y014C0031 100';

describe('findBoardingPasses', () => {
  it('reads the fixed-width fields of one leg', () => {
    expect(findBoardingPasses(`Scan at the gate: ${ONE_LEG}`)).toEqual([
      {
        name: 'SOLBERG/MINA MS',
        legs: [{ pnr: 'QZP4TW', from: 'FRA', to: 'BER', carrier: 'LH', number: '180', cabin: 'Economy', seat: '12A' }],
      },
    ]);
  });

  it('reads every leg, and the fields when the padding spaces collapsed to one', () => {
    const [pass] = findBoardingPasses(TWO_LEGS.replace(/ +/g, ' '));
    expect(pass?.name).toBe('SOLBERG/PER');
    expect(pass?.legs.map((entry) => [entry.pnr, entry.from, entry.to, entry.number, entry.seat])).toEqual([
      ['QZP4TW', 'FRA', 'BER', '180', '12B'],
      ['QZP4TW', 'BER', 'FRA', '191', '14C'],
    ]);
  });

  it('reads nothing in ordinary text', () => {
    expect(findBoardingPasses('M1 motorway closed; Flight LH 180 FRA-BER at 07:05')).toEqual([]);
  });
});

describe('boarding passes in a confirmation', () => {
  it('gives the travellers and the code that only the barcode text carries', async () => {
    const html = [
      '<p>Your boarding passes</p>',
      '<table><tr><td>LH 180</td><td>Frankfurt (FRA) 07:05</td><td>Berlin (BER) 08:10</td><td>Sun 21 Mar 2027</td></tr></table>',
      `<p style="font-family:monospace">${ONE_LEG}</p>`,
      `<p style="font-family:monospace">${ONE_LEG.replace('SOLBERG/MINA MS  ', 'SOLBERG/PER MR   ').replace('012A', '012B')}</p>`,
    ].join('\n');
    const result = await extractHtml(
      'Lufthansa <online@booking-lufthansa.com>',
      html,
      'Your booking and boarding passes',
    );
    expect(result.bookings[0]).toMatchObject({
      bookingCode: 'QZP4TW',
      passengers: ['Mina Solberg', 'Per Solberg'],
      passengerLastName: 'Solberg',
    });
    expect(result.bookings[0]?.segments[0]).toMatchObject({ flightNumber: 'LH 180', seatNumber: '12A' });
  });

  it('fills the flight number of a leg the body prints without one', async () => {
    const text = ['Sun 21 Mar 2027', 'Frankfurt (FRA) 07:05 -> Berlin (BER) 08:10', ONE_LEG].join('\n');
    const result = await extractText('Lufthansa <online@booking-lufthansa.com>', text, 'Your boarding pass');
    expect(result.bookings[0]?.segments[0]?.flightNumber).toBe('LH 180');
    expect(result.bookings[0]?.passengers).toEqual(['Mina Solberg']);
  });
});
