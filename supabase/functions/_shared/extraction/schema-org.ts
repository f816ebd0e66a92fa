// schema.org FlightReservation markup, the structured data airlines embed for mail clients:
// JSON-LD (<script type="application/ld+json">, in head or body, single objects, arrays or
// @graph) and microdata (itemscope/itemprop, on <meta> tags or visible elements). One
// reservation object per passenger or per flight is common; they are grouped by reservation
// number into one booking. JSON that browsers and mail clients accept but a strict parser does not
// (a missing comma between objects, a trailing comma, comments, single quotes) is repaired with
// jsonrepair; dates written MM-DD-YYYY are read too, and an airport given only by its name or
// city (once the index of airport names is loaded: see index.ts). Markup beyond repair yields
// nothing rather than an error.
import type { HtmlElement } from './html.ts';
import { textContent, walkElements } from './html.ts';
import type { CabinClass, DraftBooking, DraftSegment, Money } from './types.ts';
import { parseIsoDateTime } from './airports.ts';
import { cabinFromText } from './cabin.ts';
import { parseAmount } from './money.ts';
import { jsonrepair } from 'jsonrepair';
import { findPlaces } from './airport-names.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asArray(value: Json | undefined): Json[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function typeNames(object: JsonObject): string[] {
  return asArray(object['@type'] ?? object.type)
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.replace(/^https?:\/\/schema\.org\//i, '').toLowerCase());
}

function str(value: Json | undefined): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return str(value[0]);
  if (isObject(value)) return str(value.name ?? value['@value'] ?? value.value);
  return null;
}

// ---- collecting objects ----

function collectJsonLd(root: HtmlElement): Json[] {
  const documents: Json[] = [];
  for (const element of walkElements(root)) {
    if (element.tag !== 'script') continue;
    if (!/ld\+json/i.test(element.attrs.type ?? '')) continue;
    const source = textContent({ ...element, tag: 'div' })
      .replace(/^\s*(?:<!--|\/\/\s*<!\[CDATA\[)/, '')
      .replace(/(?:-->|\/\/\s*\]\]>)\s*$/, '');
    try {
      documents.push(JSON.parse(source) as Json);
    } catch {
      try {
        documents.push(JSON.parse(jsonrepair(source)) as Json);
      } catch {
        continue;
      }
    }
  }
  return documents;
}

interface MicrodataItem {
  type: string;
  props: Map<string, (string | MicrodataItem)[]>;
}

function microdataValue(element: HtmlElement): string {
  const attrs = element.attrs;
  if (element.tag === 'meta') return attrs.content ?? '';
  if (element.tag === 'link' || element.tag === 'a' || element.tag === 'area') return attrs.href ?? '';
  if (element.tag === 'img' || element.tag === 'source') return attrs.src ?? '';
  if (element.tag === 'time') return attrs.datetime ?? textContent(element);
  if (element.tag === 'data' || element.tag === 'meter') return attrs.value ?? textContent(element);
  return attrs.content ?? textContent(element);
}

function readItem(element: HtmlElement, depth: number): MicrodataItem {
  const item: MicrodataItem = { type: element.attrs.itemtype ?? '', props: new Map() };
  const visit = (node: HtmlElement, level: number): void => {
    if (level > 60) return;
    for (const child of node.children) {
      if (typeof child === 'string') continue;
      const names = (child.attrs.itemprop ?? '').split(/\s+/).filter(Boolean);
      const scoped = child.attrs.itemscope !== undefined;
      if (names.length > 0) {
        const value = scoped ? readItem(child, depth + 1) : microdataValue(child).replace(/\s+/g, ' ').trim();
        for (const name of names) {
          const list = item.props.get(name) ?? [];
          list.push(value);
          item.props.set(name, list);
        }
      }
      if (!scoped && depth < 20) visit(child, level + 1);
    }
  };
  visit(element, 0);
  return item;
}

function itemToJson(item: MicrodataItem): JsonObject {
  const object: JsonObject = { '@type': item.type.split('/').pop() ?? '' };
  for (const [name, values] of item.props) {
    const converted = values.map((value) => (typeof value === 'string' ? value : itemToJson(value)));
    object[name] = converted.length === 1 ? (converted[0] ?? null) : converted;
  }
  return object;
}

function collectMicrodata(root: HtmlElement): Json[] {
  const items: Json[] = [];
  const visit = (element: HtmlElement, depth: number): void => {
    if (depth > 200) return;
    for (const child of element.children) {
      if (typeof child === 'string') continue;
      if (child.attrs.itemscope !== undefined && child.attrs.itemprop === undefined) {
        items.push(itemToJson(readItem(child, 0)));
      } else {
        visit(child, depth + 1);
      }
    }
  };
  visit(root, 0);
  return items;
}

function findReservations(value: Json, found: JsonObject[], depth = 0): void {
  if (depth > 12) return;
  if (Array.isArray(value)) {
    for (const entry of value) findReservations(entry, found, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  if (typeNames(value).includes('flightreservation')) {
    found.push(value);
    return;
  }
  for (const key of ['@graph', 'mainEntity', 'itemListElement', 'item', 'subReservation']) {
    if (value[key] !== undefined) findReservations(value[key] ?? null, found, depth + 1);
  }
}

// ---- reading reservations ----

function personName(value: Json | undefined): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (!isObject(value)) return null;
  const name = str(value.name);
  if (name) return name;
  const given = str(value.givenName);
  const family = str(value.familyName);
  return given || family ? [given, family].filter(Boolean).join(' ') : null;
}

function readPrice(reservation: JsonObject): Money | null {
  const currencyOf = (object: JsonObject): string | null => str(object.priceCurrency) ?? str(object.currency) ?? null;
  let amountText: string | null;
  let currency = currencyOf(reservation);
  const total = reservation.totalPrice ?? reservation.price;
  if (isObject(total)) {
    amountText = str(total.price) ?? str(total.value);
    currency = currencyOf(total) ?? currency;
  } else {
    amountText = str(total);
  }
  if (!amountText || !currency || !/^[A-Z]{3}$/i.test(currency)) return null;
  const amount = parseAmount(amountText);
  if (amount === null) return null;
  return { amountCents: Math.round(amount * 100), currency: currency.toUpperCase() };
}

/** An airport's IATA code, or the airport its name or address names ('Frankfurt Airport'). */
function airportCode(value: Json | undefined): string | null {
  if (typeof value === 'string') {
    return /^[A-Z]{3}$/i.test(value.trim()) ? value.trim().toUpperCase() : (findPlaces(value)[0]?.code ?? null);
  }
  if (!isObject(value)) return null;
  const code = str(value.iataCode) ?? str(value.iata);
  if (code && /^[A-Z]{3}$/i.test(code)) return code.toUpperCase();
  const address = isObject(value.address) ? str(value.address.addressLocality) : str(value.address);
  const [place] = [str(value.name), address].flatMap((text) => (text ? findPlaces(text) : []));
  return place?.code ?? null;
}

function readFlight(flight: JsonObject, seat: string | null, cabin: CabinClass | null): DraftSegment | null {
  const airline = isObject(flight.airline) ? flight.airline : isObject(flight.provider) ? flight.provider : null;
  let carrier = airline ? str(airline.iataCode) : null;
  const printed = (str(flight.flightNumber) ?? '').replace(/\s+/g, '').toUpperCase();
  const split = /^([A-Z][A-Z0-9]|[0-9][A-Z])?0*(\d{1,4})[A-Z]?$/.exec(printed);
  if (split?.[1]) carrier = carrier ?? split[1];
  const departure = parseMarkupDateTime(str(flight.departureTime) ?? '');
  const arrival = parseMarkupDateTime(str(flight.arrivalTime) ?? '');
  const departureAirport = airportCode(flight.departureAirport);
  const arrivalAirport = airportCode(flight.arrivalAirport);
  if (!departureAirport || !arrivalAirport || !departure) return null;
  return {
    carrier: carrier ? carrier.toUpperCase() : null,
    number: split?.[2] ?? null,
    departureAirport,
    arrivalAirport,
    departureUtc: 'utcMillis' in departure ? departure.utcMillis : null,
    arrivalUtc: arrival && 'utcMillis' in arrival ? arrival.utcMillis : null,
    departureLocal: 'local' in departure ? departure.local : null,
    arrivalLocal: arrival && 'local' in arrival ? arrival.local : null,
    arrivalDayOffset: null,
    cabinClass: cabin,
    seatNumber: seat,
  };
}

/** '03-21-2027 07:05', '03/21/2027T07:05:00', '21-03-2027 07:05' (a first number over 12 is the day). */
const NUMERIC_DATE_TIME =
  /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:[T ]+(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?\s*([ap]\.?m\.?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** ISO 8601 as the vocabulary asks, or the numeric dates some senders write in it. */
function parseMarkupDateTime(value: string): ReturnType<typeof parseIsoDateTime> {
  const iso = parseIsoDateTime(value);
  if (iso) return iso;
  const match = NUMERIC_DATE_TIME.exec(value.trim());
  if (!match) return null;
  const [, first = '', second = '', year = '', hourText = '0', minute = '00', meridiem, zone = ''] = match;
  const [month, day] = Number(first) > 12 ? [second, first] : [first, second];
  let hour = Number(hourText);
  if (meridiem && hour <= 12) hour = (hour % 12) + (/^p/i.test(meridiem) ? 12 : 0);
  const pad = (text: string | number) => String(text).padStart(2, '0');
  return parseIsoDateTime(`${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${minute}${zone}`);
}

function readSeat(reservation: JsonObject): string | null {
  const direct = str(reservation.airplaneSeat);
  const ticket = isObject(reservation.reservedTicket) ? reservation.reservedTicket : null;
  const ticketed = ticket && isObject(ticket.ticketedSeat) ? str(ticket.ticketedSeat.seatNumber) : null;
  const seat = (direct ?? ticketed ?? '').toUpperCase().replace(/\s+/g, '');
  return /^\d{1,2}[A-K]$/.test(seat) ? seat : null;
}

function segmentKey(segment: DraftSegment): string {
  return `${segment.carrier ?? ''}${segment.number ?? ''}|${segment.departureAirport}|${segment.departureUtc ?? JSON.stringify(segment.departureLocal)}`;
}

/** Bookings found in the schema.org markup of one HTML document, in document order. */
export function extractSchemaOrg(root: HtmlElement): DraftBooking[] {
  const reservations: JsonObject[] = [];
  for (const document of [...collectJsonLd(root), ...collectMicrodata(root)]) findReservations(document, reservations);
  const bookings = new Map<string, DraftBooking & { segmentKeys: Set<string> }>();
  for (const reservation of reservations) {
    const status = str(reservation.reservationStatus) ?? '';
    if (/cancel/i.test(status)) continue;
    const code = (str(reservation.reservationNumber) ?? str(reservation.reservationId) ?? '').toUpperCase();
    if (!/^[A-Z0-9]{5,8}$/.test(code)) continue;
    let booking = bookings.get(code);
    if (!booking) {
      booking = {
        bookingCode: code,
        airlineIata: null,
        airlineName: null,
        passengers: [],
        segments: [],
        totalPrice: null,
        fareType: null,
        segmentKeys: new Set(),
      };
      bookings.set(code, booking);
    }
    for (const person of asArray(reservation.underName)) {
      const name = personName(person);
      if (name && !booking.passengers.some((known) => known.toLowerCase() === name.toLowerCase())) {
        booking.passengers.push(name);
      }
    }
    const seat = readSeat(reservation);
    const seatClass =
      str(reservation.airplaneSeatClass) ??
      str(isObject(reservation.reservedTicket) ? reservation.reservedTicket.ticketedSeat : null);
    const cabin = seatClass ? cabinFromText(seatClass, null) : null;
    for (const flight of asArray(reservation.reservationFor)) {
      if (!isObject(flight)) continue;
      const segment = readFlight(flight, seat, cabin);
      if (!segment) continue;
      const airline = isObject(flight.airline) ? flight.airline : null;
      if (airline && !booking.airlineName) booking.airlineName = str(airline.name);
      const key = segmentKey(segment);
      if (booking.segmentKeys.has(key)) continue; // a later passenger's copy of the same flight
      booking.segmentKeys.add(key);
      booking.segments.push(segment);
    }
    booking.totalPrice = booking.totalPrice ?? readPrice(reservation);
  }
  return [...bookings.values()].map(({ segmentKeys: _keys, ...booking }) => booking);
}
