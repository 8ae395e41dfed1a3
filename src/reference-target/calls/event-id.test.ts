import { describe, expect, it } from 'vitest';
import { locateEventId, mediaType, readPayloadPath } from './event-id.js';

const json = (v: unknown) => ({ contentType: 'application/json' as const, text: JSON.stringify(v) });

describe('finding the event id of a webhook', () => {
  it('reads the media type without its parameters, and only the four accepted ones', () => {
    expect(mediaType('application/json; charset=utf-8')).toBe('application/json');
    expect(mediaType('TEXT/PLAIN')).toBe('text/plain');
    expect(mediaType('application/pdf')).toBeUndefined();
    expect(mediaType(undefined)).toBeUndefined();
  });

  it('follows a dotted path into JSON, or reads it as one key when told to', () => {
    const body = json({ booking: { ref: { id: 'E-1' } }, 'booking.ref.id': 'literal' });
    expect(readPayloadPath(body, 'booking.ref.id')).toBe('E-1');
    expect(readPayloadPath(body, 'booking.ref.id', true)).toBe('literal');
  });

  it('reads form fields, nested XML elements and name=value text lines', () => {
    expect(readPayloadPath({ contentType: 'application/x-www-form-urlencoded', text: 'a=1&booking.ref=E-2' }, 'booking.ref')).toBe('E-2');
    expect(readPayloadPath({ contentType: 'application/xml', text: '<booking id="x"><ref> E-3 </ref></booking>' }, 'booking.ref')).toBe('E-3');
    expect(readPayloadPath({ contentType: 'text/plain', text: 'status: paid\nref = E-4\n' }, 'ref')).toBe('E-4');
  });

  it('treats a body that does not parse as holding no id', () => {
    expect(readPayloadPath({ contentType: 'application/json', text: '{not json' }, 'ref')).toBeUndefined();
  });

  it('looks in headers (any case), the query string or the payload, and tells a missing id from an invalid one', () => {
    const parts = { headers: { 'x-booking-event': 'E-5' }, query: { ref: 'E-6' }, body: json({ ref: 42, obj: { a: 1 } }) };
    expect(locateEventId('headers', 'X-Booking-Event', parts)).toBe('E-5');
    expect(locateEventId('querystring', 'ref', parts)).toBe('E-6');
    expect(locateEventId('payload', 'ref', parts)).toBe('42');
    expect(locateEventId('payload', 'obj', parts)).toEqual({ invalid: { a: 1 } });
    expect(locateEventId('payload', 'missing', parts)).toBeUndefined();
  });

  it('skips elements whose name only starts with the one asked for, and reads an id after them', () => {
    expect(readPayloadPath({ contentType: 'application/xml', text: '<refx>no</refx><ref a="1">E-7</ref>' }, 'ref')).toBe('E-7');
    expect(readPayloadPath({ contentType: 'application/xml', text: '<ref>unclosed' }, 'ref')).toBeUndefined();
  });

  it('reads hostile bodies of a megabyte in one pass: spaces, unclosed tags, separators only', () => {
    const mb = 1 << 20;
    expect(readPayloadPath({ contentType: 'text/plain', text: ' '.repeat(mb) }, 'ref')).toBeUndefined();
    expect(readPayloadPath({ contentType: 'text/plain', text: `${' '.repeat(mb)}ref = E-8` }, 'ref')).toBe('E-8');
    expect(readPayloadPath({ contentType: 'application/xml', text: '<ref '.repeat(mb / 5) }, 'ref')).toBeUndefined();
    expect(readPayloadPath({ contentType: 'application/xml', text: `${'<a>'.repeat(mb / 3)}` }, 'a.a')).toBeUndefined();
  });
});
