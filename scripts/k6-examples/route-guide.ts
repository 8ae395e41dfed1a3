// A stand-in for the gRPC server k6's gRPC examples call (their comments say to start k6's own examples/grpc_server,
// which builds part of k6 itself: dialtone never builds k6). Written from the route_guide.proto the examples load
// (read from the fetched copy) and from what the scripts ask: main.FeatureExplorer (GetFeature, ListFeatures),
// main.RouteGuide (RecordRoute, RouteChat), the gRPC Health Checking protocol's Check and server reflection,
// plaintext on 127.0.0.1.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HEALTH_PROTO } from '../../src/engine/modules/grpc/health.js';

interface Point {
  latitude: number;
  longitude: number;
}

const FEATURES = [
  { name: 'Patriots Path, Mendham, NJ 07945, USA', location: { latitude: 407838351, longitude: -746143763 } },
  { name: '101 New Jersey 10, Whippany, NJ 07981, USA', location: { latitude: 408122808, longitude: -743999179 } },
  { name: 'Berkshire Valley Management Area Trail, Jefferson, NJ, USA', location: { latitude: 410248224, longitude: -747127767 } },
];

const HEALTH = protoLoader.fromJSON(HEALTH_PROTO, { enums: String });

const within = (p: Point, lo: Point, hi: Point) =>
  p.latitude >= Math.min(lo.latitude, hi.latitude) &&
  p.latitude <= Math.max(lo.latitude, hi.latitude) &&
  p.longitude >= Math.min(lo.longitude, hi.longitude) &&
  p.longitude <= Math.max(lo.longitude, hi.longitude);

export interface RouteGuide {
  readonly port: number;
  close(): Promise<void>;
}

type Any = grpc.GrpcObject & Record<string, { service: grpc.ServiceDefinition }>;

/** Starts the stand-in from the route_guide.proto at `proto`. */
export async function startRouteGuide(proto: string): Promise<RouteGuide> {
  const definition = protoLoader.loadSync(proto, { keepCase: false, defaults: true });
  const main = (grpc.loadPackageDefinition(definition) as Record<string, Any>).main as Any;
  const healthPkg = grpc.loadPackageDefinition(HEALTH) as unknown as { grpc: { health: { v1: Any } } };
  const health = healthPkg.grpc.health.v1.Health;
  const server = new grpc.Server();
  server.addService((main.FeatureExplorer as { service: grpc.ServiceDefinition }).service, {
    GetFeature: (call: grpc.ServerUnaryCall<Point, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      const f = FEATURES.find((x) => x.location.latitude === call.request.latitude && x.location.longitude === call.request.longitude);
      cb(null, f ?? { name: '', location: call.request });
    },
    ListFeatures: (call: grpc.ServerWritableStream<{ lo: Point; hi: Point }, unknown>) => {
      for (const f of FEATURES) if (within(f.location, call.request.lo, call.request.hi)) call.write(f);
      call.end();
    },
  });
  server.addService((main.RouteGuide as { service: grpc.ServiceDefinition }).service, {
    RecordRoute: (call: grpc.ServerReadableStream<Point, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      const start = Date.now();
      let points = 0;
      let features = 0;
      call.on('data', (p: Point) => {
        points++;
        if (FEATURES.some((f) => f.location.latitude === p.latitude && f.location.longitude === p.longitude)) features++;
      });
      call.on('end', () =>
        cb(null, { pointCount: points, featureCount: features, distance: points * 1000, elapsedTime: Math.round((Date.now() - start) / 1000) }),
      );
    },
    RouteChat: (call: grpc.ServerDuplexStream<unknown, unknown>) => {
      call.on('data', (note) => call.write(note));
      call.on('end', () => call.end());
    },
  });
  server.addService((health as { service: grpc.ServiceDefinition }).service, {
    Check: (_call: unknown, cb: grpc.sendUnaryData<unknown>) => cb(null, { status: 'SERVING' }),
  });
  // Server reflection, for k6's grpc_reflection.js example.
  new ReflectionService(definition).addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { port, close: () => new Promise<void>((r) => server.tryShutdown(() => r())) };
}
