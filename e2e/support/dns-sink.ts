// A real DNS server on loopback for the browser tests: it answers CNAME and TXT questions from
// DNS_ZONE_FILE, read at every question, which the specs (other processes) write.
import fs from 'node:fs';
import dns2 from 'dns2';
import { DNS_PORT, DNS_ZONE_FILE } from './env.ts';

const { Packet } = dns2;
type Zone = Record<string, Array<{ type: 'CNAME' | 'TXT'; value: string }>>;

function zone(): Zone {
  try {
    return JSON.parse(fs.readFileSync(DNS_ZONE_FILE, 'utf8')) as Zone;
  } catch {
    return {};
  }
}

const server = dns2.createServer({
  udp: true,
  tcp: true,
  handle: (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const q = request.questions[0];
    if (q) {
      const wanted = q.type === Packet.TYPE.CNAME ? 'CNAME' : q.type === Packet.TYPE.TXT ? 'TXT' : undefined;
      for (const r of zone()[q.name.toLowerCase()] ?? []) {
        if (r.type !== wanted) continue;
        const answer =
          r.type === 'CNAME'
            ? { name: q.name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 5, domain: r.value }
            : { name: q.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 5, data: r.value };
        response.answers.push(answer as unknown as (typeof response.answers)[number]);
      }
    }
    send(response);
  },
});
await server.listen({
  udp: { port: DNS_PORT, address: '127.0.0.1' },
  tcp: { port: DNS_PORT, address: '127.0.0.1' },
});
console.log(`DNS sink on ${DNS_PORT}`);
