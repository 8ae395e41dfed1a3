// The gRPC server reflection protocol's client side (grpc.io/docs/guides/reflection; grpc/reflection/v1/reflection.proto),
// for k6's `connect(…, { reflect: true })`: "Whether to use the gRPC server reflection protocol when connecting". One
// ServerReflectionInfo stream asks for the services, then for the file that holds each (a server answers with the file
// and the files it imports), and the files become one serialized FileDescriptorSet for @grpc/proto-loader. v1 first,
// v1alpha when the server has only that (as older grpc-go servers).
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** The protocol's messages, the fields this client uses, written out (v1 and v1alpha have the same messages). */
function reflectionProto(pkg: 'v1' | 'v1alpha'): protoLoader.PackageDefinition {
  const messages = {
    ServerReflectionRequest: {
      oneofs: { message_request: { oneof: ['file_by_filename', 'file_containing_symbol', 'list_services'] } },
      fields: {
        host: { type: 'string', id: 1 },
        file_by_filename: { type: 'string', id: 3 },
        file_containing_symbol: { type: 'string', id: 4 },
        list_services: { type: 'string', id: 7 },
      },
    },
    ServerReflectionResponse: {
      oneofs: { message_response: { oneof: ['file_descriptor_response', 'list_services_response', 'error_response'] } },
      fields: {
        file_descriptor_response: { type: 'FileDescriptorResponse', id: 4 },
        list_services_response: { type: 'ListServiceResponse', id: 6 },
        error_response: { type: 'ErrorResponse', id: 7 },
      },
    },
    FileDescriptorResponse: { fields: { file_descriptor_proto: { rule: 'repeated', type: 'bytes', id: 1 } } },
    ListServiceResponse: { fields: { service: { rule: 'repeated', type: 'ServiceResponse', id: 1 } } },
    ServiceResponse: { fields: { name: { type: 'string', id: 1 } } },
    ErrorResponse: { fields: { error_code: { type: 'int32', id: 1 }, error_message: { type: 'string', id: 2 } } },
    ServerReflection: {
      methods: {
        ServerReflectionInfo: {
          requestType: 'ServerReflectionRequest',
          requestStream: true,
          responseType: 'ServerReflectionResponse',
          responseStream: true,
        },
      },
    },
  };
  const json = { nested: { grpc: { nested: { reflection: { nested: { [pkg]: { nested: messages } } } } } } };
  return protoLoader.fromJSON(json as unknown as Parameters<typeof protoLoader.fromJSON>[0], { keepCase: true, oneofs: true });
}

interface Response {
  readonly file_descriptor_response?: { readonly file_descriptor_proto: Buffer[] };
  readonly list_services_response?: { readonly service: { readonly name: string }[] };
  readonly error_response?: { readonly error_code: number; readonly error_message: string };
}

/** One request and its one answer at a time over a ServerReflectionInfo stream. */
class Conversation {
  readonly #call: grpc.ClientDuplexStream<object, Response>;
  readonly #waiting: { resolve: (r: Response) => void; reject: (e: Error) => void }[] = [];
  #failed: Error | undefined;

  constructor(client: grpc.Client, pkg: 'v1' | 'v1alpha', metadata: grpc.Metadata, deadline: number) {
    const method = (reflectionProto(pkg)[`grpc.reflection.${pkg}.ServerReflection`] as grpc.ServiceDefinition).ServerReflectionInfo;
    if (!method) throw new Error('the reflection protocol definition has no ServerReflectionInfo');
    this.#call = client.makeBidiStreamRequest(method.path, method.requestSerialize, method.responseDeserialize as (b: Buffer) => Response, metadata, {
      deadline,
    });
    this.#call.on('data', (r: Response) => this.#waiting.shift()?.resolve(r));
    this.#call.on('error', (e: Error) => {
      this.#failed = e;
      for (const w of this.#waiting.splice(0)) w.reject(e);
    });
  }

  ask(request: object): Promise<Response> {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#call.write({ host: '', ...request });
    });
  }

  end(): void {
    this.#call.end();
  }
}

/** Appends `bytes` as field 1 (length-delimited) of a FileDescriptorSet. */
function field1(bytes: Buffer): Buffer {
  const len: number[] = [];
  let n = bytes.length;
  do {
    len.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return Buffer.concat([Buffer.from([0x0a, ...len]), bytes]);
}

/** Every service the server lists, and the files that define them, as a serialized FileDescriptorSet. */
async function descriptorSet(client: grpc.Client, pkg: 'v1' | 'v1alpha', metadata: grpc.Metadata, deadline: number): Promise<Buffer> {
  const talk = new Conversation(client, pkg, metadata, deadline);
  try {
    const listed = await talk.ask({ list_services: '*' });
    if (listed.error_response) throw new Error(listed.error_response.error_message);
    const services = (listed.list_services_response?.service ?? []).map((s) => s.name).filter((n) => !n.startsWith('grpc.reflection.'));
    const files = new Map<string, Buffer>();
    for (const symbol of services) {
      const r = await talk.ask({ file_containing_symbol: symbol });
      if (r.error_response) throw new Error(`${symbol}: ${r.error_response.error_message}`);
      for (const f of r.file_descriptor_response?.file_descriptor_proto ?? []) files.set(f.toString('base64'), f);
    }
    return Buffer.concat([...files.values()].map(field1));
  } finally {
    talk.end();
  }
}

/**
 * The server's service definitions through reflection, as @grpc/proto-loader reads a protoset. Throws with the
 * server's reason when it offers no reflection.
 *
 * @example
 * const def = await reflectedDefinitions(client, new grpc.Metadata(), Date.now() + 60_000, options);
 */
export async function reflectedDefinitions(
  client: grpc.Client,
  metadata: grpc.Metadata,
  deadline: number,
  options: protoLoader.Options,
): Promise<protoLoader.PackageDefinition> {
  let set: Buffer;
  try {
    set = await descriptorSet(client, 'v1', metadata, deadline);
  } catch (e) {
    if ((e as { code?: number }).code !== grpc.status.UNIMPLEMENTED) throw e;
    set = await descriptorSet(client, 'v1alpha', metadata, deadline);
  }
  return protoLoader.loadFileDescriptorSetFromBuffer(set, options);
}
