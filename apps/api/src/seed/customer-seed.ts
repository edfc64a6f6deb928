import { randomBytes, randomUUID } from 'node:crypto';
import timezones from 'timezones.json';
import type { Queryable } from '../db/db.ts';
import type { FieldCrypto } from '../lib/field-crypto.ts';
import { bulkLoadPastCustomerActivity } from '../modules/activity/activity.service.ts';
import {
  type BulkCustomer,
  bulkLoadDemoCustomers,
  type DemoSiteRow,
} from '../modules/customers/bulk-load.service.ts';

/*
 * Demo customers, sites, shared sites, sign-ins and activity, and the word lists the scale
 * generator (seed-scale-cli.ts) shares. Everything but the API keys and secrets of the two named
 * demo sites, the secrets of the others and the IVs of encrypted connection strings is deterministic: one seeded PRNG, times relative to the seeding time.
 *
 * Time zones: customers.time_zone holds the FIRST `utc` identifier of a timezones.json entry
 * (e.g. 'America/Chicago' for 'Central Standard Time'); find the entry with
 * `timezones.find((t) => t.utc?.[0] === id)`.
 */

/** Known rows tests can rely on. Ada shares Charles's site as a Developer. */
const DEMO_CUSTOMERS = {
  ada: {
    uid: 'ada00000-0000-4000-8000-000000001815',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada.lovelace@analytical.example',
    organization: 'Analytical Engines Ltd',
    site: { name: 'analytical-engine' },
    sharedSite: { name: 'difference-engine', role: 'Developer' },
  },
  charles: {
    uid: 'cba00000-0000-4000-8000-000000001791',
    firstName: 'Charles',
    lastName: 'Babbage',
    email: 'charles.babbage@difference.example',
    organization: 'Difference Engine Works',
    site: { name: 'difference-engine' },
  },
} as const;

export const DEMO_COUNTS = { customers: 300, logins: 2000, members: 150 } as const;

// ---------------------------------------------------------------------------------------------
// Word lists, most frequent first (the scale generator skews its picks towards the front).

const words = (s: string): string[] => [...new Set(s.trim().split(/\s*,\s*/))];

export const FIRST_NAMES = words(`
James, Mary, John, Maria, Robert, Jennifer, Michael, Linda, William, Elizabeth, David, Barbara,
Richard, Susan, Joseph, Jessica, Thomas, Sarah, Charles, Karen, Christopher, Nancy, Daniel, Lisa,
Matthew, Margaret, Mohammed, Fatima, Anthony, Sandra, Mark, Ashley, Wei, Emily, Paul, Donna,
Andrew, Michelle, Joshua, Carol, Kevin, Amanda, Brian, Melissa, George, Stephanie, Priya, Rahul,
Rebecca, Ronald, Laura, Edward, Sharon, Jason, Cynthia, Ryan, Kathleen, Jacob, Amy, Gary, Angela,
Nicholas, Anna, Eric, Ruth, Jonathan, Brenda, Stephen, Pamela, Justin, Nicole, Juan, Carlos,
Katherine, Scott, Samantha, Brandon, Christine, Benjamin, Emma, Samuel, Catherine, Gregory,
Rachel, Alexander, Carolyn, Patrick, Janet, Frank, Olivia, Raymond, Heather, Jack, Helen, Tyler,
Diane, Aaron, Julie, Jose, Victoria, Adam, Joyce, Nathan, Lauren, Henry, Kelly, Zachary,
Christina, Ahmed, Aisha, Luis, Sofia, Miguel, Lucia, Peter, Evelyn, Kyle, Judith, Noah, Andrea,
Ethan, Hannah, Jeremy, Megan, Walter, Cheryl, Christian, Jacqueline, Keith, Martha, Roger,
Madison, Arjun, Ananya, Li, Mei, Hiroshi, Yuki, Austin, Gloria, Sean, Sara, Carl, Ann, Harold,
Kathryn, Dylan, Abigail, Arthur, Sophia, Lawrence, Frances, Jordan, Jean, Jesse, Alice, Bryan,
Judy, Gabriel, Grace, Logan, Denise, Alan, Danielle, Albert, Beverly, Elijah, Natalie, Wayne,
Theresa, Vincent, Diana, Mason, Isabella, Ravi, Deepak, Sunita, Vikram, Pooja, Sanjay, Lakshmi,
Chen, Jun, Hao, Yan, Kenji, Sakura, Haruto, Aiko, Minjun, Jiwoo, Seoyeon, Oluwaseun, Chinedu,
Ngozi, Emeka, Amara, Kwame, Abena, Kofi, Thandiwe, Sipho, Lerato, Javier, Alejandro, Valentina,
Camila, Mateo, Diego, Isabel, Carmen, Pablo, Francesca, Giulia, Marco, Luca, Alessandro, Chiara,
Giovanni, Matteo, Lukas, Leon, Felix, Jonas, Lena, Mia, Klaus, Pierre, Camille, Louis, Chloe,
Manon, Antoine, Elodie, Hugo, Lea, Sven, Astrid, Ingrid, Lars, Freya, Nils, Anders, Karin, Piotr,
Katarzyna, Agnieszka, Tomasz, Magdalena, Dmitri, Natasha, Ivan, Svetlana, Oksana, Andrei, Yusuf,
Zeynep, Emre, Elif, Omar, Layla, Hassan, Noor, Tariq, Samira, Minh, Linh, Thanh, Siti, Putri, Budi,
Ayesha, Imran, Bilal, Zainab, Joao, Ana, Pedro, Beatriz, Rafael, Gabriela, Thiago, Mariana, Liam,
Aoife, Siobhan, Ciaran, Niamh, Declan, Oscar, Ruby, Harry, Isla, Archie, Poppy, Freddie, Imogen,
Theo, Matilda, Kai, Zara, Rohan, Meera, Aditya, Kavya, Ishaan, Tanvi, Farhan, Nadia, Reza, Leila,
Dario, Bianca, Stefan, Milena, Bogdan, Irina, Marek, Zuzana, Tobias, Johanna, Malik, Imani,
Xavier, Yolanda, Quentin, Ulrike, Vera, Wilhelmina, Zoltan, Ximena, Yara, Bartholomew, Cordelia,
Evander, Ottoline, Peregrine, Seraphina, Thaddeus
`);

export const LAST_NAMES = words(`
Smith, Johnson, Williams, Brown, Jones, Garcia, Miller, Davis, Rodriguez, Martinez, Patel, Wang,
Hernandez, Lopez, Gonzalez, Wilson, Anderson, Kumar, Singh, Thomas, Taylor, Moore, Jackson,
Martin, Lee, Perez, Thompson, White, Nguyen, Harris, Sanchez, Clark, Ramirez, Lewis, Robinson,
Walker, Li, Zhang, Young, Allen, King, Wright, Scott, Torres, Chen, Hill, Flores, Green, Adams,
Nelson, Baker, Hall, Rivera, Campbell, Mitchell, Carter, Roberts, Sharma, Kim, Park, Liu, Yang,
Huang, Khan, Ali, Ahmed, Silva, Santos, Mueller, Schmidt, Schneider, Fischer, Weber, Meyer,
Wagner, Becker, Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Dubois, Durand, Moreau,
Laurent, Lefebvre, Tanaka, Suzuki, Takahashi, Watanabe, Ito, Yamamoto, Nakamura, Sato, Phillips,
Evans, Turner, Parker, Collins, Edwards, Stewart, Morris, Murphy, Cook, Rogers, Morgan, Peterson,
Cooper, Reed, Bailey, Bell, Gomez, Kelly, Howard, Ward, Cox, Diaz, Richardson, Wood, Watson,
Brooks, Bennett, Gray, James, Reyes, Cruz, Hughes, Price, Myers, Long, Foster, Sanders, Ross,
Morales, Powell, Sullivan, Russell, Ortiz, Jenkins, Gutierrez, Perry, Butler, Barnes, Fisher,
Henderson, Coleman, Simmons, Patterson, Jordan, Reynolds, Hamilton, Graham, Kennedy, Wallace,
Gibson, Ellis, Marshall, Owens, Harrison, Fernandez, Gupta, Reddy, Iyer, Nair, Menon, Rao, Joshi,
Mehta, Shah, Desai, Bose, Banerjee, Mukherjee, Chatterjee, Das, Rahman, Chowdhury, Hussain,
Hassan, Ibrahim, Mahmoud, Haddad, Khoury, Nasser, Mansour, Saleh, Yilmaz, Kaya, Demir, Sahin,
Celik, Tran, Pham, Hoang, Phan, Vu, Dang, Bui, Zhao, Wu, Zhou, Xu, Sun, Ma, Zhu, Hu, Guo, He, Lin,
Choi, Jung, Kang, Cho, Yoon, Jang, Lim, Kobayashi, Kato, Yoshida, Yamada, Sasaki, Matsumoto,
Inoue, Kimura, Hayashi, Shimizu, Okafor, Okoye, Adeyemi, Mensah, Boateng, Nkosi, Dlamini,
Mwangi, Otieno, Abubakar, Eze, Obi, Oliveira, Souza, Pereira, Lima, Carvalho, Ferreira, Almeida,
Ribeiro, Rodrigues, Gomes, Martins, Araujo, Costa, Nowak, Kowalski, Wisniewski, Wojcik,
Kowalczyk, Kaminski, Lewandowski, Zielinski, Ivanov, Smirnov, Kuznetsov, Popov, Sokolov,
Petrov, Volkov, Novak, Horvat, Kovacs, Nagy, Szabo, Toth, Jensen, Nielsen, Hansen, Pedersen,
Andersen, Larsen, Johansson, Karlsson, Nilsson, Eriksson, Larsson, Olsen, Berg, Haugen,
Virtanen, Korhonen, O'Brien, O'Connor, Walsh, Byrne, Ryan, McCarthy, Doyle, Fitzgerald,
MacDonald, Robertson, Thomson, Murray, Fraser, Cameron, Davies, Lloyd, Hoffmann, Koch, Richter,
Klein, Wolf, Schroeder, Neumann, Schwarz, Zimmermann, Braun, Krueger, Hartmann, Lange, Werner,
Krause, Lehmann, Colombo, Ricci, Marino, Greco, Bruno, Gallo, Conti, De Luca, Giordano,
Mancini, Rizzo, Lombardi, Moretti, Bernard, Leroy, Michel, Fontaine, Rousseau, Girard, Bonnet,
Mendoza, Castillo, Ortega, Chavez, Ramos, Ruiz, Alvarez, Jimenez, Moreno, Romero, Herrera,
Medina, Aguilar, Vargas, Castro, Guzman, Rojas, Vasquez, Salazar, Fuentes, Carrillo, Dominguez,
Cohen, Levi, Friedman, Katz, Goldberg, Shapiro, Rosen, Kaplan, Santoso, Wijaya, Halim, Tan, Ong,
Lau, Chua, Stone, Fox, Hunt, Black, Grant, Ford, Bishop, Wells, Porter, Hunter, Hayes, Sims,
Spencer, Cole, West, Dixon, Burns, Webb, Tucker, Freeman, Warren, Gordon, Holmes, Rice, Knight,
Hawkins, Dunn, Pierce, Hudson, Fleming, Sutherland, Whitaker, Ashworth, Pemberton, Thistlewood,
Quigley, Featherstone, Vandermeer, Oyelaran, Szczepanski, Papadopoulos, Katsaros, Vasilakis,
Abernathy, Blackwood, Montgomery, Zavala, Villanueva, Bergstrom, Lindqvist, Okonkwo, Achterberg,
Wojciechowski, Yamaguchi, Nakashima, Srinivasan, Venkataraman, Raghunathan, Balasubramanian
`);

const ORG_WORDS = words(`
Northwind, Blue Harbor, Summit, Pinecrest, Cedar, Granite, Brightline, Silverleaf, Atlas, Beacon,
Crescent, Evergreen, Falcon, Horizon, Ironwood, Juniper, Keystone, Lighthouse, Maple, Nimbus,
Orchid, Pioneer, Quantum, Redwood, Sapphire, Tidewater, Unity, Vertex, Willow, Zenith, Aurora,
Bluebird, Copperfield, Driftwood, Emberline, Foxglove, Goldcrest, Highland, Ivory, Jadeite,
Kestrel, Lakeside, Meadowbrook, Northstar, Oakridge, Polaris, Quarry, Riverbend, Stonegate,
Trailhead, Upland, Valley, Westbrook, Yellowstone, Zephyr, Acme, Contoso, Fabrikam, Globex,
Initech, Umbrella, Wayfarer, Starling, Harborview, Larkspur, Moonstone, Cobalt, Saffron, Tamarind
`);

const ORG_SUFFIXES = words(`
Labs, Analytics, Systems, Software, Health, Logistics, Media, Retail, Foods, Energy, Capital,
Studios, Networks, Solutions, Consulting, Ltd, Inc, GmbH, Group, Partners, Digital, Robotics,
Learning, Travel, Insurance, Bank, Games, Security, Biotech, Apparel, Motors, Outfitters, Co-op
`);

/** The second word of a site name: what the site is. */
export const SITE_PRODUCTS = words(`
portal, app, shop, store, web, mobile, api, admin, console, dashboard, hub, id, auth, login,
account, members, community, learning, checkout, booking, support, partners, careers, blog, news,
events, rewards, loyalty, marketplace, payments, billing, clinic, academy, forum, wiki, docs,
status, insights, studio, cloud
`);

/** The first word of a scale site name. */
export const SITE_WORDS = words(`
northwind, harbor, summit, pinecrest, cedar, granite, bright, silver, atlas, beacon, crescent,
evergreen, falcon, horizon, ironwood, juniper, keystone, lighthouse, maple, nimbus, orchid,
pioneer, quantum, redwood, sapphire, tide, unity, vertex, willow, zenith, aurora, bluebird,
copper, driftwood, ember, foxglove, goldcrest, highland, ivory, jade, kestrel, lakeside, meadow,
northstar, oakridge, polaris, quarry, riverbend, stonegate, trail, upland, valley, westbrook,
zephyr, acme, contoso, fabrikam, globex, initech, wayfarer, starling, larkspur, moonstone, cobalt,
saffron, tamarind, alpine, bamboo, cascade, delta, echo, fjord, glacier, harvest, island, jasper,
kinetic, lumen, mosaic, nova, orbit, prism, quill, raven, solstice, tundra, urban, vivid, wander,
xenon, yonder, zest, amber, brook, canyon, dune, ember, fern, grove, hollow, indigo, jubilee
`);

/** Scale e-mail domains; demo customers use '<org>.example' and a few personal domains instead. */
export const SCALE_EMAIL_DOMAINS = [
  'example.com',
  'example.net',
  'example.org',
  'mail.example.com',
  'inbox.example.net',
  'corp.example.org',
  'post.example.com',
  'users.example.net',
];

const PERSONAL_DOMAINS = ['mail.example', 'inbox.example', 'post.example', 'webmail.example'];

/** Entries of timezones.json by `value`, weighted by how many demo customers live there. */
const TIME_ZONE_WEIGHTS: Array<[string, number]> = [
  ['Eastern Standard Time', 18],
  ['Central Standard Time', 10],
  ['Pacific Standard Time', 10],
  ['Mountain Standard Time', 4],
  ['GMT Standard Time', 9],
  ['W. Europe Standard Time', 8],
  ['Romance Standard Time', 5],
  ['Central Europe Standard Time', 3],
  ['India Standard Time', 9],
  ['China Standard Time', 4],
  ['Japan Standard Time', 3],
  ['Singapore Standard Time', 3],
  ['AUS Eastern Standard Time', 3],
  ['E. South America Standard Time', 3],
  ['South Africa Standard Time', 2],
  ['W. Central Africa Standard Time', 2],
  ['Arabian Standard Time', 2],
  ['Korea Standard Time', 1],
  ['New Zealand Standard Time', 1],
];

/** The first `utc` identifier of the timezones.json entry with this value. */
function timeZoneId(value: string): string {
  const id = timezones.find((t) => t.value === value && t.utc && t.utc.length > 0)?.utc[0];
  if (!id) throw new Error(`No time zone '${value}' with a utc identifier in timezones.json`);
  return id;
}

/** Time-zone ids repeated by weight: pick one with a uniform index. */
export const WEIGHTED_TIME_ZONES: string[] = TIME_ZONE_WEIGHTS.flatMap(([v, w]) =>
  Array<string>(w).fill(timeZoneId(v)),
);

const AREA_CODES = [
  '206',
  '212',
  '213',
  '303',
  '312',
  '415',
  '503',
  '512',
  '617',
  '646',
  '702',
  '713',
  '718',
  '805',
  '206',
  '404',
  '425',
  '469',
  '480',
  '571',
  '602',
  '617',
  '720',
  '919',
];

/** A city with its country, weighted roughly by how many customers sign in from there. */
const LOCATIONS = [
  'New York, United States',
  'San Francisco, United States',
  'Seattle, United States',
  'Austin, United States',
  'Chicago, United States',
  'Boston, United States',
  'Toronto, Canada',
  'Vancouver, Canada',
  'London, United Kingdom',
  'Manchester, United Kingdom',
  'Dublin, Ireland',
  'Berlin, Germany',
  'Munich, Germany',
  'Paris, France',
  'Amsterdam, Netherlands',
  'Madrid, Spain',
  'Milan, Italy',
  'Stockholm, Sweden',
  'Warsaw, Poland',
  'Bengaluru, India',
  'Mumbai, India',
  'Hyderabad, India',
  'Singapore, Singapore',
  'Tokyo, Japan',
  'Seoul, South Korea',
  'Shanghai, China',
  'Sydney, Australia',
  'Auckland, New Zealand',
  'Sao Paulo, Brazil',
  'Mexico City, Mexico',
  'Lagos, Nigeria',
  'Nairobi, Kenya',
  'Cape Town, South Africa',
  'Dubai, United Arab Emirates',
];

const BROWSERS: Record<'Web' | 'Mobile' | 'API', string[]> = {
  Web: [
    'Chrome 126.0 on Windows 11',
    'Chrome 125.0 on Windows 10',
    'Chrome 126.0 on macOS 14.5',
    'Safari 17.5 on macOS 14.5',
    'Firefox 127.0 on Windows 11',
    'Firefox 126.0 on Ubuntu 24.04',
    'Edge 126.0 on Windows 11',
    'Chrome 124.0 on ChromeOS 124',
  ],
  Mobile: [
    'Mobile Safari 17.5 on iOS 17.5',
    'Chrome Mobile 126.0 on Android 14',
    'Samsung Internet 25.0 on Android 14',
    'Console app 3.4.1 on iOS 17.5',
    'Console app 3.4.0 on Android 13',
  ],
  API: [
    'curl/8.7.1',
    'python-requests/2.32.3',
    'okhttp/4.12.0',
    'PostmanRuntime/7.39.0',
    'Go-http-client/2.0',
  ],
};

// ---------------------------------------------------------------------------------------------

/** sfc32: a small, fast, seedable PRNG; returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

/** Lower-case letters only: what goes into an e-mail's local part or a site name. */
const slug = (s: string): string => s.toLowerCase().replace(/[^a-z]/g, '');

const DAY = 86_400_000;

interface DemoCustomer extends BulkCustomer {
  /** For sign-ins: where this customer usually is. */
  home: { location: string; address: string };
}

/** A demo site: the bulk load's row, its plan and status narrowed to the demo's values. */
interface DemoSite extends DemoSiteRow {
  plan: 'Free' | 'Developer' | 'Developer Premium';
  planStatus: 'Trial' | 'Subscribed';
  status: 'active' | 'inactive';
}

interface DemoMember {
  siteName: string;
  customerUid: string;
  role: string;
  addedAt: Date;
}

interface DemoLogin {
  customerUid: string;
  at: Date;
  accessType: string;
  browser: string;
  address: string;
  location: string;
}

interface DemoActivity {
  at: Date;
  actorEmail: string;
  action: string;
  targetId: string;
  address: string;
  details: Record<string, unknown>;
}

interface DemoCatalogue {
  featureSets: Record<string, string[]>;
  /** [global server code, its data center code] */
  servers: Array<[string, string]>;
  /** Customer roles other than Owner. */
  memberRoles: string[];
}

interface DemoCustomerData {
  customers: DemoCustomer[];
  sites: DemoSite[];
  members: DemoMember[];
  logins: DemoLogin[];
  activity: DemoActivity[];
}

/** The demo rows, deterministic for a given seeding time and catalogue. */
/** The API key and secret of one of the two named demo sites: generated per install, never fixed. */
export interface DemoSiteCredentials {
  name: string;
  apiKey: string;
  secret: string;
}

function buildDemoCustomers(
  at: Date,
  catalogue: DemoCatalogue,
  staffEmails: string[],
  credentials: readonly DemoSiteCredentials[],
): DemoCustomerData {
  const rnd = seededRandom(0x5ac0de);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  /** Skewed towards the front of a frequency-ordered list. */
  const pickCommon = <T>(xs: readonly T[]): T => xs[Math.floor(xs.length * rnd() ** 1.6)]!;
  const chance = (p: number) => rnd() < p;
  const uuid = () => {
    const b = Array.from({ length: 16 }, () => int(256));
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  const docAddress = () => `${pick(['192.0.2', '198.51.100', '203.0.113'])}.${1 + int(254)}`;
  const phone = () => `${pick(AREA_CODES)}55501${String(int(100)).padStart(2, '0')}`;
  const ago = (maxDays: number, minDays = 0) =>
    new Date(at.getTime() - Math.floor((minDays + rnd() * (maxDays - minDays)) * DAY));
  const between = (from: Date, to: Date) =>
    new Date(from.getTime() + Math.floor(rnd() * Math.max(0, to.getTime() - from.getTime())));
  const home = () => ({ location: pick(LOCATIONS), address: docAddress() });

  // Organizations: each with a domain; several customers may work for one.
  const orgs: Array<{ name: string; domain: string; word: string }> = [];
  const orgDomains = new Set<string>(['analytical.example', 'difference.example']);
  while (orgs.length < 180) {
    const word = chance(0.3) ? pick(LAST_NAMES) : pick(ORG_WORDS);
    const suffix = pick(ORG_SUFFIXES);
    const name = chance(0.15) && !word.includes(' ') ? `${word} & Sons` : `${word} ${suffix}`;
    const domain = chance(0.5) ? `${slug(word)}.example` : `${slug(word)}-${slug(suffix)}.example`;
    if (orgDomains.has(domain)) continue;
    orgDomains.add(domain);
    orgs.push({ name, domain, word });
  }

  const customers: DemoCustomer[] = [];
  const emails = new Set<string>();
  const ada = DEMO_CUSTOMERS.ada;
  const charles = DEMO_CUSTOMERS.charles;
  for (const [fixed, created] of [
    [ada, ago(900, 700)],
    [charles, ago(1000, 901)],
  ] as const) {
    emails.add(fixed.email);
    customers.push({
      uid: fixed.uid,
      first: fixed.firstName,
      last: fixed.lastName,
      email: fixed.email,
      organization: fixed.organization,
      phone: phone(),
      authEmail: fixed.email,
      contactEmail: fixed.email,
      timeZone: timeZoneId('GMT Standard Time'),
      status: 'Active',
      emailVerified: true,
      createdAt: created,
      modifiedAt: between(created, ago(30)),
      home: { location: 'London, United Kingdom', address: '203.0.113.18' },
    });
  }
  while (customers.length < DEMO_COUNTS.customers) {
    const first = pickCommon(FIRST_NAMES);
    const last = pickCommon(LAST_NAMES);
    const org = pick(orgs);
    const f = slug(first);
    const l = slug(last);
    const local = pick([`${f}.${l}`, `${f}.${l}`, `${f}${l}`, `${f[0]}${l}`, `${f}_${l}`, `${f}${l[0]}`]);
    const domain = chance(0.75) ? org.domain : pick(PERSONAL_DOMAINS);
    let email = `${local}@${domain}`;
    for (let k = 2; emails.has(email); k++) email = `${local}${k}@${domain}`;
    emails.add(email);
    const createdAt = ago(1100, 1);
    const r = rnd();
    customers.push({
      uid: uuid(),
      first,
      last,
      email,
      organization: org.name,
      phone: phone(),
      authEmail: chance(0.9) ? email : `${f}.${l}@${pick(PERSONAL_DOMAINS)}`,
      contactEmail: chance(0.6)
        ? email
        : pick([`billing@${org.domain}`, `it@${org.domain}`, `${f}@${org.domain}`]),
      timeZone: pick(WEIGHTED_TIME_ZONES),
      status: r < 0.9 ? 'Active' : r < 0.96 ? 'Blocked' : 'Deleted',
      emailVerified: chance(0.85),
      createdAt,
      modifiedAt: chance(0.3) ? between(createdAt, at) : createdAt,
      home: home(),
    });
  }

  // Sites: the two fixed ones, then 0-4 per other customer (about 400 in all).
  const sites: DemoSite[] = [];
  const siteNames = new Set<string>();
  const servers = catalogue.servers;
  const fixedSite = (c: DemoCustomer, s: typeof ada.site | typeof charles.site): DemoSite => {
    siteNames.add(s.name);
    const own = credentials.find((k) => k.name === s.name)!;
    return {
      name: s.name,
      apiKey: own.apiKey,
      secret: own.secret,
      ownerUid: c.uid,
      plan: 'Developer Premium',
      planStatus: 'Subscribed',
      trialEndsAt: null,
      dataCenter: 'eu-west',
      globalServer: 'euw-shared-1',
      dbName: `${s.name.replace(/-/g, '_')}_prod`,
      customDbConn: null,
      features: catalogue.featureSets['Developer Premium'] ?? [],
      status: 'active',
      productionUrl: `https://${s.name}.example.com`,
      stagingUrl: `https://staging.${s.name}.example.com`,
      createdAt: between(c.createdAt, ago(60)),
      modifiedAt: ago(30, 1),
    };
  };
  sites.push(fixedSite(customers[0]!, ada.site), fixedSite(customers[1]!, charles.site));
  for (const c of customers.slice(2)) {
    const r = rnd();
    const n = r < 0.12 ? 0 : r < 0.67 ? 1 : r < 0.9 ? 2 : r < 0.97 ? 3 : 4;
    const org = orgs.find((o) => o.name === c.organization)!;
    for (let i = 0; i < n; i++) {
      let name = '';
      for (let tries = 0; !name || siteNames.has(name); tries++) {
        const base = tries < 5 ? slug(org.word.split(' ')[0]!) : pick(SITE_WORDS);
        name =
          tries < 10
            ? `${base}-${pick(SITE_PRODUCTS)}`
            : `${base}-${pick(SITE_WORDS)}-${pick(SITE_PRODUCTS)}`;
      }
      siteNames.add(name);
      const pr = rnd();
      const plan = pr < 0.4 ? 'Free' : pr < 0.75 ? 'Developer' : 'Developer Premium';
      const trial = plan !== 'Free' && chance(0.35);
      const [server, dataCenter] = pick(servers);
      const custom = plan !== 'Free' && chance(0.04);
      const dbName = custom
        ? `${slug(org.word)}_${pick(['identity', 'users', 'crm', 'auth'])}`
        : `lr_${name.replace(/-/g, '_')}`;
      let features = catalogue.featureSets[plan] ?? [];
      if (plan === 'Developer Premium' && chance(0.15))
        features = [...new Set([...features, ...(catalogue.featureSets.B2B ?? [])])];
      else if (plan === 'Developer' && chance(0.2)) {
        const drop = int(features.length);
        features = features.filter((_, k) => k !== drop);
      }
      const createdAt = between(c.createdAt, at);
      sites.push({
        name,
        apiKey: uuid(),
        ownerUid: c.uid,
        plan,
        planStatus: trial ? 'Trial' : 'Subscribed',
        // half the trials still running, half expired
        trialEndsAt: trial ? new Date(at.getTime() + Math.floor((rnd() * 60 - 30) * DAY)) : null,
        dataCenter,
        globalServer: custom ? null : server,
        dbName,
        customDbConn: custom
          ? chance(0.5)
            ? `postgres://${dbName}_app:${pick(['Tr0ub4dor', 'c0rrect-h0rse', 'S3cure!pass'])}@db.${org.domain}:5432/${dbName}`
            : `Server=sql.${org.domain};Database=${dbName};User Id=lr_app;Password=${pick(['P@ssw0rd!2024', 'Winter#2023'])};`
          : null,
        features,
        status: chance(0.88) ? 'active' : 'inactive',
        productionUrl: `https://${name}.example.com`,
        stagingUrl: chance(0.7) ? `https://staging.${name}.example.com` : '',
        createdAt,
        modifiedAt: between(createdAt, at),
      });
    }
  }

  // Trials ending within the week whatever the draw: the dashboard's card always has some (set
  // after the draw, so every other value stays as it was).
  const running = sites.filter((s) => s.planStatus === 'Trial' && s.trialEndsAt && s.trialEndsAt > at);
  for (const [k, days] of [1.5, 4].entries()) {
    const s = running[k];
    if (s) s.trialEndsAt = new Date(at.getTime() + Math.floor(days * DAY));
  }

  // Shared sites: customers holding a customer role on someone else's site.
  const members: DemoMember[] = [
    {
      siteName: ada.sharedSite.name,
      customerUid: ada.uid,
      role: ada.sharedSite.role,
      addedAt: ago(200, 100),
    },
  ];
  const memberKeys = new Set([`${ada.sharedSite.name} ${ada.uid}`]);
  while (members.length < DEMO_COUNTS.members) {
    const c = customers[2 + int(customers.length - 2)]!;
    const s = sites[2 + int(sites.length - 2)]!;
    const key = `${s.name} ${c.uid}`;
    if (s.ownerUid === c.uid || memberKeys.has(key)) continue;
    memberKeys.add(key);
    members.push({
      siteName: s.name,
      customerUid: c.uid,
      role: pick(catalogue.memberRoles),
      addedAt: between(c.createdAt > s.createdAt ? c.createdAt : s.createdAt, at),
    });
  }

  // Sign-ins over the last 90 days: mostly from home, some customers far more often than others.
  const signers = customers.filter((c) => c.status !== 'Deleted');
  const logins: DemoLogin[] = [];
  const loginFor = (c: DemoCustomer) => {
    const r = rnd();
    const accessType = r < 0.7 ? 'Web' : r < 0.9 ? 'Mobile' : 'API';
    const fromHome = chance(0.8);
    logins.push({
      customerUid: c.uid,
      at: ago(90),
      accessType,
      browser: pick(BROWSERS[accessType]),
      address: fromHome ? c.home.address : docAddress(),
      location: fromHome ? c.home.location : pick(LOCATIONS),
    });
  };
  for (let i = 0; i < 12; i++) loginFor(customers[0]!);
  while (logins.length < DEMO_COUNTS.logins) loginFor(signers[Math.floor(signers.length * rnd() ** 2)]!);

  // Activity about each customer, by the demo staff.
  const activity: DemoActivity[] = [];
  const staffAddress = new Map(staffEmails.map((e, i) => [e, `198.51.100.${10 + i}`]));
  const act = (at: Date, action: string, targetId: string, details: Record<string, unknown>) => {
    const actorEmail = pick(staffEmails);
    activity.push({ at, actorEmail, action, targetId, address: staffAddress.get(actorEmail)!, details });
  };
  for (const c of customers) {
    act(c.createdAt, 'customer.create', c.uid, { email: c.email });
    if (c.modifiedAt > c.createdAt)
      act(c.modifiedAt, 'customer.profile.update', c.uid, {
        fields: pick([
          ['phone'],
          ['organization'],
          ['timeZone'],
          ['contactEmail', 'phone'],
          ['firstName', 'lastName'],
        ]),
      });
    if (c.status !== 'Active')
      act(between(c.createdAt, at), 'customer.status.update', c.uid, { from: 'Active', to: c.status });
  }
  for (const s of sites) act(s.createdAt, 'site.create', s.ownerUid, { appName: s.name, plan: s.plan });
  for (const m of members)
    act(m.addedAt, 'site.member.add', m.customerUid, { appName: m.siteName, role: m.role });
  activity.sort((a, b) => a.at.getTime() - b.at.getTime());

  return { customers, sites, members, logins, activity };
}

/**
 * Inserts the demo customers with their sites, shared sites, sign-ins and activity: one statement
 * per table (unnest of arrays), so a few hundred milliseconds even on PGlite. Run it in the demo
 * seeding transaction, after the demo staff exist.
 */
export async function seedDemoCustomers(
  tx: Queryable,
  opts: {
    at: Date;
    crypto: FieldCrypto;
    staffEmails: string[];
    /** Runs before the activity rows, which name staff by email (the demo staff are inserted here). */
    beforeActivity?: () => Promise<void>;
  },
): Promise<{
  customers: number;
  sites: number;
  members: number;
  logins: number;
  activity: number;
  credentials: DemoSiteCredentials[];
}> {
  // One after another: queries on one client (a transaction) do not run side by side anyway.
  const sets = await tx.query<{ name: string; features: string[] }>(
    'SELECT name, features FROM feature_sets ORDER BY name',
  );
  const servers = await tx.query<{ code: string; data_center: string }>(
    'SELECT code, data_center FROM global_servers ORDER BY code',
  );
  const roles = await tx.query<{ name: string }>(
    "SELECT name FROM customer_roles WHERE name <> 'Owner' ORDER BY name",
  );
  const credentials = [DEMO_CUSTOMERS.ada.site.name, DEMO_CUSTOMERS.charles.site.name].map((name) => ({
    name,
    apiKey: randomUUID(),
    secret: randomBytes(24).toString('base64url'),
  }));
  const data = buildDemoCustomers(
    opts.at,
    {
      featureSets: Object.fromEntries(sets.rows.map((r) => [r.name, r.features])),
      servers: servers.rows.map((r) => [r.code, r.data_center]),
      memberRoles: roles.rows.map((r) => r.name),
    },
    opts.staffEmails,
    credentials,
  );
  const { customers: cs, sites: ss, members: ms, logins: ls, activity: as } = data;

  await bulkLoadDemoCustomers(tx, opts.crypto, { customers: cs, sites: ss, members: ms, logins: ls });
  await opts.beforeActivity?.();
  await bulkLoadPastCustomerActivity(tx, as);

  return {
    customers: cs.length,
    sites: ss.length,
    members: ms.length,
    logins: ls.length,
    activity: as.length,
    credentials,
  };
}

/** The SHA-256 a scale site's secret hashes to: the scale generator's secret is `scale-secret-<app_id>`. */
export const scaleSecret = (appId: number): string => `scale-secret-${appId}`;
