// Prometheus remote write 1.0's request (prompb.WriteRequest), with the native histograms its TimeSeries carries since
// Prometheus 2.40: protobuf through protobufjs, snappy's block format through snappyjs, as the remote write spec asks
// ("The remote write request MUST be encoded using Google Protobuf 3, and MUST be compressed using the Google Snappy").
// The prometheus-remote-write package sends float samples only; its message types leave histograms out.
import protobuf from 'protobufjs';
import SnappyJS from 'snappyjs';

/** One bucket span of a native histogram: `length` consecutive buckets, `offset` buckets after the previous span. */
export interface BucketSpan {
  readonly offset: number;
  readonly length: number;
}

/** A native histogram as remote write carries it (integer counts, positive buckets only: durations are never negative). */
export interface NativeHistogram {
  readonly count: number;
  readonly sum: number;
  readonly schema: number;
  readonly zeroThreshold: number;
  readonly zeroCount: number;
  readonly positiveSpans: readonly BucketSpan[];
  /** Each bucket's count as a delta from the previous bucket's (the first from 0). */
  readonly positiveDeltas: readonly number[];
  readonly timestamp: number;
}

/** One series: its labels (with __name__), and its float samples or its histograms. */
export interface RemoteSeries {
  readonly labels: Readonly<Record<string, string>>;
  readonly samples?: readonly { readonly value: number; readonly timestamp: number }[];
  readonly histograms?: readonly NativeHistogram[];
}

/** prompb's types.proto and remote.proto, the fields remote write 1.0 uses. */
const ROOT = protobuf.Root.fromJSON({
  nested: {
    prometheus: {
      nested: {
        WriteRequest: { fields: { timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 } } },
        TimeSeries: {
          fields: {
            labels: { rule: 'repeated', type: 'Label', id: 1 },
            samples: { rule: 'repeated', type: 'Sample', id: 2 },
            histograms: { rule: 'repeated', type: 'Histogram', id: 4 },
          },
        },
        Label: { fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        Sample: { fields: { value: { type: 'double', id: 1 }, timestamp: { type: 'int64', id: 2 } } },
        BucketSpan: { fields: { offset: { type: 'sint32', id: 1 }, length: { type: 'uint32', id: 2 } } },
        Histogram: {
          oneofs: { count: { oneof: ['countInt', 'countFloat'] }, zeroCount: { oneof: ['zeroCountInt', 'zeroCountFloat'] } },
          fields: {
            countInt: { type: 'uint64', id: 1 },
            countFloat: { type: 'double', id: 2 },
            sum: { type: 'double', id: 3 },
            schema: { type: 'sint32', id: 4 },
            zeroThreshold: { type: 'double', id: 5 },
            zeroCountInt: { type: 'uint64', id: 6 },
            zeroCountFloat: { type: 'double', id: 7 },
            positiveSpans: { rule: 'repeated', type: 'BucketSpan', id: 11 },
            positiveDeltas: { rule: 'repeated', type: 'sint64', id: 12 },
            resetHint: { type: 'int32', id: 14 },
            timestamp: { type: 'int64', id: 15 },
          },
        },
      },
    },
  },
});
const WriteRequest = ROOT.lookupType('prometheus.WriteRequest');

/** ResetHint.NO: a series's histogram only grows over the run (it is cumulative from the start). */
const RESET_NO = 2;

/**
 * The request body: the WriteRequest, protobuf-encoded and snappy-compressed; `extra` labels go on every series, the
 * series's own winning.
 *
 * @example
 * const body = encodeWriteRequest([{ labels: { __name__: 'k6_vus' }, samples: [{ value: 2, timestamp: Date.now() }] }]);
 */
export function encodeWriteRequest(series: readonly RemoteSeries[], extra: Readonly<Record<string, string>> = {}): Uint8Array {
  const message = WriteRequest.fromObject({
    timeseries: series.map((s) => ({
      // Prometheus wants a series's labels sorted by name.
      labels: Object.entries({ ...extra, ...s.labels })
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, value]) => ({ name, value })),
      samples: s.samples ?? [],
      histograms: (s.histograms ?? []).map((h) => ({
        countInt: h.count,
        sum: h.sum,
        schema: h.schema,
        zeroThreshold: h.zeroThreshold,
        zeroCountInt: h.zeroCount,
        positiveSpans: h.positiveSpans,
        positiveDeltas: h.positiveDeltas,
        resetHint: RESET_NO,
        timestamp: h.timestamp,
      })),
    })),
  });
  return SnappyJS.compress(WriteRequest.encode(message).finish());
}
