import type { BulkCustomer, DemoSiteRow } from '../modules/customers/bulk-load.service.ts';
import {
  BROWSERS,
  FIRST_NAMES,
  LAST_NAMES,
  LOCATIONS,
  ORG_SUFFIXES,
  ORG_WORDS,
  PERSONAL_DOMAINS,
  SITE_PRODUCTS,
  SITE_WORDS,
  timeZoneId,
  WEIGHTED_TIME_ZONES,
} from './demo-word-lists.ts';
import { DAY, type DemoDraws, demoDraws } from './seeded-random.ts';

/*
 * The demo customers, sites, shared sites, sign-ins and activity, as rows (customer-seed.ts writes
 * them). Everything but the API keys and secrets of the two named demo sites is deterministic: one
 * seeded PRNG, times relative to the seeding time. Each step below draws from the one sequence in
 * turn, so their order is part of the data.
 */

/** Known rows tests can rely on. Ada shares Charles's site as a Developer. */
export const DEMO_CUSTOMERS = {
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

/** Lower-case letters only: what goes into an e-mail's local part or a site name. */
const slug = (s: string): string => s.toLowerCase().replace(/[^a-z]/g, '');

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

export interface DemoCatalogue {
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

/** The API key and secret of one of the two named demo sites: generated per install, never fixed. */
export interface DemoSiteCredentials {
  name: string;
  apiKey: string;
  secret: string;
}

interface Organization {
  name: string;
  domain: string;
  word: string;
}

/** The demo rows, deterministic for a given seeding time and catalogue. */
export function buildDemoCustomers(
  at: Date,
  catalogue: DemoCatalogue,
  staffEmails: string[],
  credentials: readonly DemoSiteCredentials[],
): DemoCustomerData {
  const d = demoDraws(0x5ac0de, at);
  const orgs = drawOrganizations(d);
  const customers = [...namedCustomers(d), ...drawCustomers(d, at, orgs)];
  const sites = [
    namedSite(d, customers[0]!, DEMO_CUSTOMERS.ada.site.name, catalogue, credentials),
    namedSite(d, customers[1]!, DEMO_CUSTOMERS.charles.site.name, catalogue, credentials),
  ];
  for (const c of customers.slice(2)) drawSitesOf(d, at, c, orgs, catalogue, sites);
  endSomeTrialsThisWeek(sites, at);
  const members = drawSharedSites(d, at, customers, sites, catalogue.memberRoles);
  const logins = drawSignIns(d, customers);
  const activity = staffActivity(d, at, staffEmails, { customers, sites, members });
  return { customers, sites, members, logins, activity };
}

/** Organizations: each with a domain; several customers may work for one. */
function drawOrganizations(d: DemoDraws): Organization[] {
  const orgs: Organization[] = [];
  const orgDomains = new Set<string>(['analytical.example', 'difference.example']);
  while (orgs.length < 180) {
    const word = d.chance(0.3) ? d.pick(LAST_NAMES) : d.pick(ORG_WORDS);
    const suffix = d.pick(ORG_SUFFIXES);
    const name = d.chance(0.15) && !word.includes(' ') ? `${word} & Sons` : `${word} ${suffix}`;
    const domain = d.chance(0.5) ? `${slug(word)}.example` : `${slug(word)}-${slug(suffix)}.example`;
    if (orgDomains.has(domain)) continue;
    orgDomains.add(domain);
    orgs.push({ name, domain, word });
  }
  return orgs;
}

/** Ada and Charles, the tests' and the README's customers. */
function namedCustomers(d: DemoDraws): DemoCustomer[] {
  const { ada, charles } = DEMO_CUSTOMERS;
  const customers: DemoCustomer[] = [];
  for (const [fixed, created] of [
    [ada, d.ago(900, 700)],
    [charles, d.ago(1000, 901)],
  ] as const) {
    customers.push({
      uid: fixed.uid,
      first: fixed.firstName,
      last: fixed.lastName,
      email: fixed.email,
      organization: fixed.organization,
      phone: d.phone(),
      authEmail: fixed.email,
      contactEmail: fixed.email,
      timeZone: timeZoneId('GMT Standard Time'),
      status: 'Active',
      emailVerified: true,
      createdAt: created,
      modifiedAt: d.between(created, d.ago(30)),
      home: { location: 'London, United Kingdom', address: '203.0.113.18' },
    });
  }
  return customers;
}

/** The other customers, with unique e-mails (the named two's included). */
function drawCustomers(d: DemoDraws, at: Date, orgs: Organization[]): DemoCustomer[] {
  const customers: DemoCustomer[] = [];
  const emails = new Set<string>([DEMO_CUSTOMERS.ada.email, DEMO_CUSTOMERS.charles.email]);
  while (customers.length < DEMO_COUNTS.customers - 2) {
    const first = d.pickCommon(FIRST_NAMES);
    const last = d.pickCommon(LAST_NAMES);
    const org = d.pick(orgs);
    const f = slug(first);
    const l = slug(last);
    const local = d.pick([`${f}.${l}`, `${f}.${l}`, `${f}${l}`, `${f[0]}${l}`, `${f}_${l}`, `${f}${l[0]}`]);
    const domain = d.chance(0.75) ? org.domain : d.pick(PERSONAL_DOMAINS);
    let email = `${local}@${domain}`;
    for (let k = 2; emails.has(email); k++) email = `${local}${k}@${domain}`;
    emails.add(email);
    const createdAt = d.ago(1100, 1);
    const r = d.rnd();
    customers.push({
      uid: d.uuid(),
      first,
      last,
      email,
      organization: org.name,
      phone: d.phone(),
      authEmail: d.chance(0.9) ? email : `${f}.${l}@${d.pick(PERSONAL_DOMAINS)}`,
      contactEmail: d.chance(0.6)
        ? email
        : d.pick([`billing@${org.domain}`, `it@${org.domain}`, `${f}@${org.domain}`]),
      timeZone: d.pick(WEIGHTED_TIME_ZONES),
      status: r < 0.9 ? 'Active' : r < 0.96 ? 'Blocked' : 'Deleted',
      emailVerified: d.chance(0.85),
      createdAt,
      modifiedAt: d.chance(0.3) ? d.between(createdAt, at) : createdAt,
      home: d.home(),
    });
  }
  return customers;
}

/** One of the two named sites, with this install's API key and secret. */
function namedSite(
  d: DemoDraws,
  c: DemoCustomer,
  name: string,
  catalogue: DemoCatalogue,
  credentials: readonly DemoSiteCredentials[],
): DemoSite {
  const own = credentials.find((k) => k.name === name)!;
  return {
    name,
    apiKey: own.apiKey,
    secret: own.secret,
    ownerUid: c.uid,
    plan: 'Developer Premium',
    planStatus: 'Subscribed',
    trialEndsAt: null,
    dataCenter: 'eu-west',
    globalServer: 'euw-shared-1',
    dbName: `${name.replace(/-/g, '_')}_prod`,
    customDbConn: null,
    features: catalogue.featureSets['Developer Premium'] ?? [],
    status: 'active',
    productionUrl: `https://${name}.example.com`,
    stagingUrl: `https://staging.${name}.example.com`,
    createdAt: d.between(c.createdAt, d.ago(60)),
    modifiedAt: d.ago(30, 1),
  };
}

/** 0-4 sites of one customer (about 400 in all), appended to `sites` (whose names they avoid). */
function drawSitesOf(
  d: DemoDraws,
  at: Date,
  c: DemoCustomer,
  orgs: Organization[],
  catalogue: DemoCatalogue,
  sites: DemoSite[],
): void {
  const r = d.rnd();
  const n = r < 0.12 ? 0 : r < 0.67 ? 1 : r < 0.9 ? 2 : r < 0.97 ? 3 : 4;
  const org = orgs.find((o) => o.name === c.organization)!;
  for (let i = 0; i < n; i++) {
    const name = drawSiteName(d, org, new Set(sites.map((s) => s.name)));
    const pr = d.rnd();
    const plan = pr < 0.4 ? 'Free' : pr < 0.75 ? 'Developer' : 'Developer Premium';
    const trial = plan !== 'Free' && d.chance(0.35);
    const [server, dataCenter] = d.pick(catalogue.servers);
    const custom = plan !== 'Free' && d.chance(0.04);
    const dbName = custom
      ? `${slug(org.word)}_${d.pick(['identity', 'users', 'crm', 'auth'])}`
      : `lr_${name.replace(/-/g, '_')}`;
    const features = drawFeatures(d, plan, catalogue);
    const createdAt = d.between(c.createdAt, at);
    sites.push({
      name,
      apiKey: d.uuid(),
      ownerUid: c.uid,
      plan,
      planStatus: trial ? 'Trial' : 'Subscribed',
      // half the trials still running, half expired
      trialEndsAt: trial ? new Date(at.getTime() + Math.floor((d.rnd() * 60 - 30) * DAY)) : null,
      dataCenter,
      globalServer: custom ? null : server,
      dbName,
      customDbConn: custom ? drawConnectionString(d, org, dbName) : null,
      features,
      status: d.chance(0.88) ? 'active' : 'inactive',
      productionUrl: `https://${name}.example.com`,
      stagingUrl: d.chance(0.7) ? `https://staging.${name}.example.com` : '',
      createdAt,
      modifiedAt: d.between(createdAt, at),
    });
  }
}

/** '<organization word>-<product>', else a site word in its place, else three words; unused. */
function drawSiteName(d: DemoDraws, org: Organization, taken: Set<string>): string {
  let name = '';
  for (let tries = 0; !name || taken.has(name); tries++) {
    const base = tries < 5 ? slug(org.word.split(' ')[0]!) : d.pick(SITE_WORDS);
    name =
      tries < 10
        ? `${base}-${d.pick(SITE_PRODUCTS)}`
        : `${base}-${d.pick(SITE_WORDS)}-${d.pick(SITE_PRODUCTS)}`;
  }
  return name;
}

/** The plan's feature set; some premium sites add B2B, some developer sites lack one feature. */
function drawFeatures(d: DemoDraws, plan: DemoSite['plan'], catalogue: DemoCatalogue): string[] {
  const features = catalogue.featureSets[plan] ?? [];
  if (plan === 'Developer Premium' && d.chance(0.15))
    return [...new Set([...features, ...(catalogue.featureSets.B2B ?? [])])];
  if (plan === 'Developer' && d.chance(0.2)) {
    const drop = d.int(features.length);
    return features.filter((_, k) => k !== drop);
  }
  return features;
}

/** A custom database's connection string: PostgreSQL or SQL Server, with a password in it. */
function drawConnectionString(d: DemoDraws, org: Organization, dbName: string): string {
  return d.chance(0.5)
    ? `postgres://${dbName}_app:${d.pick(['Tr0ub4dor', 'c0rrect-h0rse', 'S3cure!pass'])}@db.${org.domain}:5432/${dbName}`
    : `Server=sql.${org.domain};Database=${dbName};User Id=lr_app;Password=${d.pick(['P@ssw0rd!2024', 'Winter#2023'])};`;
}

/**
 * Trials ending within the week whatever the draw: the dashboard's card always has some (set
 * after the draw, so every other value stays as it was).
 */
function endSomeTrialsThisWeek(sites: DemoSite[], at: Date): void {
  const running = sites.filter((s) => s.planStatus === 'Trial' && s.trialEndsAt && s.trialEndsAt > at);
  for (const [k, days] of [1.5, 4].entries()) {
    const s = running[k];
    if (s) s.trialEndsAt = new Date(at.getTime() + Math.floor(days * DAY));
  }
}

/** Shared sites: customers holding a customer role on someone else's site. */
function drawSharedSites(
  d: DemoDraws,
  at: Date,
  customers: DemoCustomer[],
  sites: DemoSite[],
  memberRoles: string[],
): DemoMember[] {
  const { ada } = DEMO_CUSTOMERS;
  const members: DemoMember[] = [
    {
      siteName: ada.sharedSite.name,
      customerUid: ada.uid,
      role: ada.sharedSite.role,
      addedAt: d.ago(200, 100),
    },
  ];
  const memberKeys = new Set([`${ada.sharedSite.name} ${ada.uid}`]);
  while (members.length < DEMO_COUNTS.members) {
    const c = customers[2 + d.int(customers.length - 2)]!;
    const s = sites[2 + d.int(sites.length - 2)]!;
    const key = `${s.name} ${c.uid}`;
    if (s.ownerUid === c.uid || memberKeys.has(key)) continue;
    memberKeys.add(key);
    members.push({
      siteName: s.name,
      customerUid: c.uid,
      role: d.pick(memberRoles),
      addedAt: d.between(c.createdAt > s.createdAt ? c.createdAt : s.createdAt, at),
    });
  }
  return members;
}

/** Sign-ins over the last 90 days: mostly from home, some customers far more often than others. */
function drawSignIns(d: DemoDraws, customers: DemoCustomer[]): DemoLogin[] {
  const signers = customers.filter((c) => c.status !== 'Deleted');
  const logins: DemoLogin[] = [];
  const loginFor = (c: DemoCustomer) => {
    const r = d.rnd();
    const accessType = r < 0.7 ? 'Web' : r < 0.9 ? 'Mobile' : 'API';
    const fromHome = d.chance(0.8);
    logins.push({
      customerUid: c.uid,
      at: d.ago(90),
      accessType,
      browser: d.pick(BROWSERS[accessType]),
      address: fromHome ? c.home.address : d.docAddress(),
      location: fromHome ? c.home.location : d.pick(LOCATIONS),
    });
  };
  for (let i = 0; i < 12; i++) loginFor(customers[0]!);
  while (logins.length < DEMO_COUNTS.logins) loginFor(signers[Math.floor(signers.length * d.rnd() ** 2)]!);
  return logins;
}

/** Activity about each customer, by the demo staff, oldest first. */
function staffActivity(
  d: DemoDraws,
  at: Date,
  staffEmails: string[],
  data: Pick<DemoCustomerData, 'customers' | 'sites' | 'members'>,
): DemoActivity[] {
  const activity: DemoActivity[] = [];
  const staffAddress = new Map(staffEmails.map((e, i) => [e, `198.51.100.${10 + i}`]));
  const act = (at: Date, action: string, targetId: string, details: Record<string, unknown>) => {
    const actorEmail = d.pick(staffEmails);
    activity.push({ at, actorEmail, action, targetId, address: staffAddress.get(actorEmail)!, details });
  };
  for (const c of data.customers) {
    act(c.createdAt, 'customer.create', c.uid, { email: c.email });
    if (c.modifiedAt > c.createdAt)
      act(c.modifiedAt, 'customer.profile.update', c.uid, {
        fields: d.pick([
          ['phone'],
          ['organization'],
          ['timeZone'],
          ['contactEmail', 'phone'],
          ['firstName', 'lastName'],
        ]),
      });
    if (c.status !== 'Active')
      act(d.between(c.createdAt, at), 'customer.status.update', c.uid, { from: 'Active', to: c.status });
  }
  for (const s of data.sites) act(s.createdAt, 'site.create', s.ownerUid, { appName: s.name, plan: s.plan });
  for (const m of data.members)
    act(m.addedAt, 'site.member.add', m.customerUid, { appName: m.siteName, role: m.role });
  activity.sort((a, b) => a.at.getTime() - b.at.getTime());
  return activity;
}
