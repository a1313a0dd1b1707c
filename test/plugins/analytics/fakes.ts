// Fake reporting APIs on 127.0.0.1 that check what they receive as the real services would:
// - the token endpoint (a service account's token_uri): a form POST with grant_type
//   jwt-bearer whose assertion is an RS256 JWT signed by the service account's private key
//   (verified with its public key), iss = client_email, aud = token_uri, a known scope,
//   unexpired at the test's clock; answers an access token;
// - Search Console (searchAnalytics.query, urlInspection.index.inspect, sitemaps list/get/
//   submit) and the GA4 Data API (runReport, runRealtimeReport): a Bearer token this fake
//   issued for the right scope, and the exact request body shapes;
// - PageSpeed Insights v5: `key`, `url`, `strategy`, `category` query parameters;
// - the Bing Webmaster API: `apikey` and `siteUrl` query parameters.
// A request that fails a check gets the service's own error shape (and the test sees it).
import { exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { createFakeServer, type FakeClock, type FakeReply, type FakeServer, type RecordedRequest } from '../../../sdk/testing/index.js';

export const CLIENT_EMAIL = 'flowhost-reports@example-project.iam.gserviceaccount.com';
export const PSI_KEY = 'AIzaPSI-test-key-0123456789';
export const BING_KEY = 'bing-test-key-abcdef0123456789';
export const SITE = 'https://example.com/';
export const PROPERTY = '123456789';
const SCOPES = {
  webmasters: 'https://www.googleapis.com/auth/webmasters',
  analytics: 'https://www.googleapis.com/auth/analytics.readonly',
};

const googleError = (code: number, status: string, message: string): FakeReply => ({
  status: code,
  body: { error: { code, message, status } },
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Rows the fakes answer, built from the request so a test can tell a default from a given value. */
export const searchRows = (dimensions: string[], n: number) =>
  Array.from({ length: n }, (_, i) => ({
    keys: dimensions.map((d) => `${d}-${i + 1}`),
    clicks: 100 - i,
    impressions: 1000 - i,
    ctr: 0.1,
    position: 3.5 + i,
  }));
export const gaRows = (dimensions: string[], metrics: string[], n: number) =>
  Array.from({ length: n }, (_, i) => ({
    dimensionValues: dimensions.map((d) => ({ value: `${d}-${i + 1}` })),
    metricValues: metrics.map((_m, j) => ({ value: String(1000 - i * 10 - j) })),
  }));

export const PSI_ANSWER = (url: string, strategy: string) => ({
  kind: 'pagespeedonline#result',
  id: url,
  analysisUTCTimestamp: '2026-03-10T11:59:00.000Z',
  loadingExperience: { id: url, overall_category: 'FAST' },
  lighthouseResult: {
    requestedUrl: url,
    finalUrl: url,
    configSettings: { formFactor: strategy.toLowerCase() },
    categories: {
      performance: { id: 'performance', title: 'Performance', score: 0.91 },
      accessibility: { id: 'accessibility', title: 'Accessibility', score: 0.98 },
      'best-practices': { id: 'best-practices', title: 'Best Practices', score: 1 },
      seo: { id: 'seo', title: 'SEO', score: 0.92 },
    },
    audits: {
      'first-contentful-paint': {
        id: 'first-contentful-paint',
        title: 'First Contentful Paint',
        score: 0.95,
        numericValue: 1200.5,
        displayValue: '1.2 s',
      },
      'largest-contentful-paint': {
        id: 'largest-contentful-paint',
        title: 'Largest Contentful Paint',
        score: 0.8,
        numericValue: 2500,
        displayValue: '2.5 s',
      },
      'total-blocking-time': { id: 'total-blocking-time', title: 'Total Blocking Time', score: 1, numericValue: 20, displayValue: '20 ms' },
      'cumulative-layout-shift': {
        id: 'cumulative-layout-shift',
        title: 'Cumulative Layout Shift',
        score: 1,
        numericValue: 0.01,
        displayValue: '0.01',
      },
      'speed-index': { id: 'speed-index', title: 'Speed Index', score: 0.9, numericValue: 2100, displayValue: '2.1 s' },
      interactive: { id: 'interactive', title: 'Time to Interactive', score: 0.9, numericValue: 3000, displayValue: '3.0 s' },
      'render-blocking-resources': {
        id: 'render-blocking-resources',
        title: 'Eliminate render-blocking resources',
        score: 0.5,
        details: { type: 'opportunity', overallSavingsMs: 450, items: [{ url: 'https://example.com/app.css', wastedMs: 450 }] },
      },
      'unused-javascript': {
        id: 'unused-javascript',
        title: 'Reduce unused JavaScript',
        score: 0.6,
        details: { type: 'opportunity', overallSavingsMs: 300, items: [] },
      },
      'uses-http2': { id: 'uses-http2', title: 'Use HTTP/2', score: 1, details: { type: 'table', items: [] } },
    },
  },
});

export const BING_ROWS: Record<string, Array<Record<string, unknown>>> = {
  GetQueryStats: Array.from({ length: 30 }, (_, i) => ({
    __type: 'QueryStats:#Microsoft.Bing.Webmaster.Api',
    AvgClickPosition: 2 + i,
    AvgImpressionPosition: 3 + i,
    Clicks: 50 - i,
    Date: '/Date(1767225600000)/',
    Impressions: 500 - i,
    Query: `query ${i + 1}`,
  })),
  GetRankAndTrafficStats: [
    { __type: 'RankAndTrafficStats:#Microsoft.Bing.Webmaster.Api', Clicks: 12, Date: '/Date(1767225600000)/', Impressions: 340 },
  ],
  GetPageStats: [
    {
      __type: 'QueryStats:#Microsoft.Bing.Webmaster.Api',
      Clicks: 9,
      Impressions: 120,
      Query: 'https://example.com/kiwi',
      AvgClickPosition: 4,
      AvgImpressionPosition: 5,
      Date: '/Date(1767225600000)/',
    },
  ],
  GetCrawlStats: [
    {
      __type: 'CrawlStats:#Microsoft.Bing.Webmaster.Api',
      AllowedByRobotsTxt: 0,
      Code2xx: 120,
      Code4xx: 3,
      CrawledPages: 130,
      CrawlErrors: 2,
      Date: '/Date(1767225600000)/',
      InIndex: 100,
      InLinks: 5,
    },
  ],
};

/** The URL Inspection API's answer for the indexed page. */
const INSPECTION = {
  inspectionResult: {
    inspectionResultLink: 'https://search.google.com/search-console/inspect?resource_id=x',
    indexStatusResult: {
      verdict: 'PASS',
      coverageState: 'Submitted and indexed',
      lastCrawlTime: '2026-03-01T10:00:00Z',
      pageFetchState: 'SUCCESSFUL',
    },
    mobileUsabilityResult: { verdict: 'PASS' },
  },
};

/** The one sitemap the fake site has. */
const SITEMAP_LIST = {
  sitemap: [
    {
      path: 'https://example.com/sitemap.xml',
      lastSubmitted: '2026-03-01T00:00:00Z',
      isPending: false,
      isSitemapsIndex: false,
      lastDownloaded: '2026-03-02T00:00:00Z',
      warnings: '0',
      errors: '0',
      contents: [{ type: 'web', submitted: '120', indexed: '0' }],
    },
  ],
};

/** searchAnalytics.query as Search Console checks and answers it. */
const searchAnalytics = (request: RecordedRequest, site: string): FakeReply => {
  if (site !== SITE) return googleError(403, 'PERMISSION_DENIED', `User does not have sufficient permission for site '${site}'.`);
  const body = request.json<Record<string, unknown>>();
  const allowed = [
    'startDate',
    'endDate',
    'dimensions',
    'rowLimit',
    'dimensionFilterGroups',
    'startRow',
    'type',
    'aggregationType',
    'dataState',
  ];
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length)
    return googleError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${unknown[0]}": Cannot find field.`);
  if (!DATE.test(String(body.startDate)) || !DATE.test(String(body.endDate)))
    return googleError(400, 'INVALID_ARGUMENT', 'startDate and endDate are required (YYYY-MM-DD).');
  const dimensions = body.dimensions as string[];
  if (
    !Array.isArray(dimensions) ||
    !dimensions.every((d) => ['query', 'page', 'date', 'country', 'device', 'searchAppearance'].includes(d))
  )
    return googleError(400, 'INVALID_ARGUMENT', 'Invalid dimensions.');
  const rowLimit = body.rowLimit as number;
  if (!Number.isInteger(rowLimit) || rowLimit < 1 || rowLimit > 25000)
    return googleError(400, 'INVALID_ARGUMENT', 'rowLimit must be 1..25000.');
  if (body.dimensionFilterGroups !== undefined) {
    const groups = body.dimensionFilterGroups as Array<{ groupType?: string; filters?: Array<Record<string, unknown>> }>;
    const ok =
      Array.isArray(groups) &&
      groups.every(
        (g) =>
          g.groupType === 'and' &&
          Array.isArray(g.filters) &&
          g.filters.every(
            (f) => ['query', 'page'].includes(String(f.dimension)) && f.operator === 'contains' && typeof f.expression === 'string',
          ),
      );
    if (!ok) return googleError(400, 'INVALID_ARGUMENT', 'Invalid dimensionFilterGroups.');
  }
  return { body: { rows: searchRows(dimensions, Math.min(rowLimit, 3)), responseAggregationType: 'byProperty' } };
};

/** runReport and runRealtimeReport as the Analytics Data API checks and answers them. */
const runReport = (request: RecordedRequest, property: string, realtime: boolean): FakeReply => {
  if (property !== PROPERTY && property !== '987654321')
    return googleError(
      403,
      'PERMISSION_DENIED',
      `User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.`,
    );
  const body = request.json<Record<string, unknown>>();
  const allowed = [
    'dateRanges',
    'dimensions',
    'metrics',
    'limit',
    'offset',
    'orderBys',
    'dimensionFilter',
    'metricFilter',
    'keepEmptyRows',
    'minuteRanges',
    'returnPropertyQuota',
    'metricAggregations',
  ];
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length)
    return googleError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${unknown[0]}": Cannot find field.`);
  if (realtime && body.dateRanges !== undefined)
    return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "dateRanges" at \'\': Cannot find field.');
  if (!realtime) {
    const ranges = body.dateRanges as Array<{ startDate?: string; endDate?: string }>;
    if (!Array.isArray(ranges) || ranges.length !== 1 || !DATE.test(String(ranges[0]!.startDate)) || !DATE.test(String(ranges[0]!.endDate)))
      return googleError(400, 'INVALID_ARGUMENT', 'dateRanges must hold startDate and endDate.');
  }
  const dims = body.dimensions as Array<{ name?: string }>;
  const mets = body.metrics as Array<{ name?: string }>;
  if (!Array.isArray(dims) || !dims.every((d) => typeof d.name === 'string' && Object.keys(d).length === 1))
    return googleError(400, 'INVALID_ARGUMENT', 'dimensions must be [{name}]');
  if (!Array.isArray(mets) || mets.length === 0 || !mets.every((m) => typeof m.name === 'string' && Object.keys(m).length === 1))
    return googleError(400, 'INVALID_ARGUMENT', 'metrics must be [{name}]');
  const limit = Number(body.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 250000)
    return googleError(400, 'INVALID_ARGUMENT', 'limit must be a positive integer.');
  const dimNames = dims.map((d) => d.name!);
  const metNames = mets.map((m) => m.name!);
  return {
    body: {
      dimensionHeaders: dimNames.map((name) => ({ name })),
      metricHeaders: metNames.map((name) => ({ name, type: 'TYPE_INTEGER' })),
      rows: gaRows(dimNames, metNames, Math.min(limit, 3)),
      rowCount: 3,
      metadata: { currencyCode: 'EUR', timeZone: 'Europe/Amsterdam' },
      kind: realtime ? 'analyticsData#runRealtimeReport' : 'analyticsData#runReport',
    },
  };
};

export interface GoogleFake {
  server: FakeServer;
  /** The service account's key file (its private key from a pair made for this test). */
  keyFile: Record<string, string>;
  tokenRequests(): RecordedRequest[];
  /** Answers the next API call (after the token check) with this reply instead. */
  failNext: FakeReply[];
}

export async function createGoogleFake(clock: FakeClock): Promise<GoogleFake> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const pem = await exportPKCS8(privateKey);
  const issued = new Map<string, string>();
  const failNext: FakeReply[] = [];
  let n = 0;
  let tokenUri = '';

  const bearer = (request: RecordedRequest, scope: string): FakeReply | null => {
    const header = String(request.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!issued.has(token))
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
    if (!issued.get(token)!.split(' ').includes(scope))
      return googleError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
    return failNext.shift() ?? null;
  };

  const token = async (request: RecordedRequest): Promise<FakeReply> => {
    const bad = (description: string): FakeReply => ({ status: 400, body: { error: 'invalid_grant', error_description: description } });
    if (request.method !== 'POST' || !String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return bad('form POST expected');
    const form = new URLSearchParams(request.body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return bad('Invalid grant_type');
    try {
      const { payload, protectedHeader } = await jwtVerify(form.get('assertion') ?? '', publicKey, {
        algorithms: ['RS256'],
        issuer: CLIENT_EMAIL,
        audience: tokenUri,
        currentDate: clock.now(),
        maxTokenAge: '1h',
      });
      if (protectedHeader.kid !== 'key-id-1') return bad('Invalid JWT: kid');
      if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number' || payload.exp - payload.iat > 3600)
        return bad('Invalid JWT: exp more than an hour after iat');
      const scope = String(payload.scope ?? '');
      if (!scope?.split(' ').every((s) => Object.values(SCOPES).includes(s))) return bad('Invalid JWT: unknown scope');
      const access = `ya29.fake-${++n}-${Math.random().toString(36).slice(2)}`;
      issued.set(access, scope);
      return { body: { access_token: access, expires_in: 3599, token_type: 'Bearer' } };
    } catch (error) {
      return bad(`Invalid JWT Signature. (${(error as Error).message})`);
    }
  };

  const server = await createFakeServer(async (request) => {
    const url = new URL(request.url, 'http://x');
    const path = url.pathname;
    if (path === '/token') return token(request);
    let m: RegExpMatchArray | null;
    if ((m = path.match(/^\/webmasters\/v3\/sites\/([^/]+)\/searchAnalytics\/query$/)) && request.method === 'POST')
      return bearer(request, SCOPES.webmasters) ?? searchAnalytics(request, decodeURIComponent(m[1]!));
    if (path === '/v1/urlInspection/index:inspect' && request.method === 'POST') {
      const refused = bearer(request, SCOPES.webmasters);
      if (refused) return refused;
      const body = request.json<{ inspectionUrl?: string; siteUrl?: string }>();
      if (
        !body.inspectionUrl ||
        body.siteUrl !== SITE ||
        Object.keys(body).some((k) => !['inspectionUrl', 'siteUrl', 'languageCode'].includes(k))
      )
        return googleError(400, 'INVALID_ARGUMENT', 'inspectionUrl and siteUrl are required.');
      return { body: INSPECTION };
    }
    if ((m = path.match(/^\/webmasters\/v3\/sites\/([^/]+)\/sitemaps$/)) && request.method === 'GET') {
      const refused = bearer(request, SCOPES.webmasters);
      if (refused) return refused;
      return { body: SITEMAP_LIST };
    }
    if ((m = path.match(/^\/webmasters\/v3\/sites\/([^/]+)\/sitemaps\/([^/]+)$/))) {
      const refused = bearer(request, SCOPES.webmasters);
      if (refused) return refused;
      const feed = decodeURIComponent(m[2]!);
      if (request.method === 'PUT')
        return request.body === '' ? { status: 204 } : googleError(400, 'INVALID_ARGUMENT', 'sitemaps.submit takes no body');
      if (request.method !== 'GET') return googleError(405, 'METHOD_NOT_ALLOWED', 'no');
      if (feed !== 'https://example.com/sitemap.xml') return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
      return {
        body: {
          path: feed,
          lastSubmitted: '2026-03-01T00:00:00Z',
          isPending: false,
          isSitemapsIndex: false,
          warnings: '0',
          errors: '0',
          contents: [{ type: 'web', submitted: '120', indexed: '0' }],
        },
      };
    }
    if ((m = path.match(/^\/v1beta\/properties\/([^/:]+):(runReport|runRealtimeReport)$/)) && request.method === 'POST')
      return bearer(request, SCOPES.analytics) ?? runReport(request, m[1]!, m[2] === 'runRealtimeReport');
    if (path === '/pagespeedonline/v5/runPagespeed' && request.method === 'GET') {
      if (url.searchParams.get('key') !== PSI_KEY)
        return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
      const target = url.searchParams.get('url') ?? '';
      if (!/^https?:\/\//.test(target)) return googleError(400, 'INVALID_ARGUMENT', "Invalid value at 'url'");
      const strategy = url.searchParams.get('strategy') ?? 'DESKTOP';
      if (!['MOBILE', 'DESKTOP'].includes(strategy.toUpperCase()))
        return googleError(400, 'INVALID_ARGUMENT', "Invalid value at 'strategy'");
      const categories = url.searchParams.getAll('category');
      if (!categories.every((c) => ['ACCESSIBILITY', 'BEST_PRACTICES', 'PERFORMANCE', 'PWA', 'SEO'].includes(c.toUpperCase())))
        return googleError(400, 'INVALID_ARGUMENT', "Invalid value at 'category'");
      return failNext.shift() ?? { body: PSI_ANSWER(target, strategy) };
    }
    return googleError(404, 'NOT_FOUND', `no route ${request.method} ${path}`);
  });
  tokenUri = `${server.url}/token`;
  return {
    server,
    failNext,
    keyFile: {
      type: 'service_account',
      project_id: 'example-project',
      private_key_id: 'key-id-1',
      private_key: pem,
      client_email: CLIENT_EMAIL,
      client_id: '1234567890',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: tokenUri,
    },
    tokenRequests: () => server.requests.filter((r) => r.url === '/token'),
  };
}

export interface BingFake {
  server: FakeServer;
  failNext: FakeReply[];
}

export async function createBingFake(): Promise<BingFake> {
  const failNext: FakeReply[] = [];
  const server = await createFakeServer((request) => {
    const url = new URL(request.url, 'http://x');
    const m = url.pathname.match(/^\/webmaster\/api\.svc\/json\/(\w+)$/);
    if (!m || request.method !== 'GET') return { status: 404, body: 'Endpoint not found.' };
    if (url.searchParams.get('apikey') !== BING_KEY) return { status: 400, body: { ErrorCode: 3, Message: 'ERROR!!! InvalidApiKey' } };
    if (url.searchParams.get('siteUrl') !== SITE) return { status: 400, body: { ErrorCode: 14, Message: 'ERROR!!! NotAuthorized' } };
    const rows = BING_ROWS[m[1]!];
    if (!rows) return { status: 400, body: { ErrorCode: 1, Message: 'ERROR!!! InvalidMethod' } };
    return failNext.shift() ?? { body: { d: rows } };
  });
  return { server, failNext };
}
