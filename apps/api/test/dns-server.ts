import dns2 from 'dns2';

const { Packet } = dns2;

export interface ZoneRecord {
  type: 'CNAME' | 'TXT';
  value: string;
}

/**
 * A real DNS server on loopback (UDP) answering from `zone`, which tests change as they go:
 * the API's resolver is pointed at it through DNS_SERVERS.
 */
export async function startDnsServer(): Promise<{
  server: string;
  zone: Map<string, ZoneRecord[]>;
  close(): Promise<void>;
}> {
  const zone = new Map<string, ZoneRecord[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (question) {
        for (const r of zone.get(question.name.toLowerCase()) ?? []) {
          const wanted =
            question.type === Packet.TYPE.CNAME
              ? 'CNAME'
              : question.type === Packet.TYPE.TXT
                ? 'TXT'
                : undefined;
          if (r.type !== wanted) continue;
          const answer =
            r.type === 'CNAME'
              ? {
                  name: question.name,
                  type: Packet.TYPE.CNAME,
                  class: Packet.CLASS.IN,
                  ttl: 60,
                  domain: r.value,
                }
              : {
                  name: question.name,
                  type: Packet.TYPE.TXT,
                  class: Packet.CLASS.IN,
                  ttl: 60,
                  data: r.value,
                };
          // dns2's Resource type lists A-record fields only; the packet encoder takes these.
          response.answers.push(answer as unknown as (typeof response.answers)[number]);
        }
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (addresses as { udp: { port: number } }).udp.port;
  return {
    server: `127.0.0.1:${port}`,
    zone,
    close: () => server.close(),
  };
}
