import timezones from 'timezones.json';

/*
 * The word lists the demo customers (demo-customer-data.ts) and the scale generator
 * (seed-scale-cli.ts) draw from, most frequent first (the scale generator skews its picks towards
 * the front), and the places, time zones and browsers of the demo's customers.
 *
 * Time zones: customers.time_zone holds the FIRST `utc` identifier of a timezones.json entry
 * (e.g. 'America/Chicago' for 'Central Standard Time'); find the entry with
 * `timezones.find((t) => t.utc?.[0] === id)`.
 */

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

export const ORG_WORDS = words(`
Northwind, Blue Harbor, Summit, Pinecrest, Cedar, Granite, Brightline, Silverleaf, Atlas, Beacon,
Crescent, Evergreen, Falcon, Horizon, Ironwood, Juniper, Keystone, Lighthouse, Maple, Nimbus,
Orchid, Pioneer, Quantum, Redwood, Sapphire, Tidewater, Unity, Vertex, Willow, Zenith, Aurora,
Bluebird, Copperfield, Driftwood, Emberline, Foxglove, Goldcrest, Highland, Ivory, Jadeite,
Kestrel, Lakeside, Meadowbrook, Northstar, Oakridge, Polaris, Quarry, Riverbend, Stonegate,
Trailhead, Upland, Valley, Westbrook, Yellowstone, Zephyr, Acme, Contoso, Fabrikam, Globex,
Initech, Umbrella, Wayfarer, Starling, Harborview, Larkspur, Moonstone, Cobalt, Saffron, Tamarind
`);

export const ORG_SUFFIXES = words(`
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

export const PERSONAL_DOMAINS = ['mail.example', 'inbox.example', 'post.example', 'webmail.example'];

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
export function timeZoneId(value: string): string {
  const id = timezones.find((t) => t.value === value && t.utc && t.utc.length > 0)?.utc[0];
  if (!id) throw new Error(`No time zone '${value}' with a utc identifier in timezones.json`);
  return id;
}

/** Time-zone ids repeated by weight: pick one with a uniform index. */
export const WEIGHTED_TIME_ZONES: string[] = TIME_ZONE_WEIGHTS.flatMap(([v, w]) =>
  Array<string>(w).fill(timeZoneId(v)),
);

export const AREA_CODES = [
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
export const LOCATIONS = [
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

export const BROWSERS: Record<'Web' | 'Mobile' | 'API', string[]> = {
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
