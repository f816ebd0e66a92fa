import { useQuery } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useTableUrlState } from '@/hooks/use-table-url-state';
import { paginatedQueryOptions, type ListPage } from '@/lib/pagination';
import { mockApi, type MockResponse, type MockRoute } from '@/testing/mock-api';
import { renderAtPath } from '@/testing/render-at-path';
import { DataTable, type DataTableColumn } from './data-table';

interface Traveller {
  id: number;
  name: string;
  email: string;
}

/** Travellers 1-60, named so that the name order and the email order differ. */
const travellers: Traveller[] = Array.from({ length: 60 }, (_, index) => {
  const id = index + 1;
  return {
    id,
    name: `Traveller ${String(id).padStart(2, '0')}`,
    email: `${String(61 - id).padStart(2, '0')}@example.com`,
  };
});

/** An endpoint that pages, sorts and searches as the API convention says. */
function listEndpoint(rows: Traveller[]): (request: Request) => MockResponse {
  return (request) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page'));
    const pageSize = Number(url.searchParams.get('pageSize'));
    const q = url.searchParams.get('q')?.toLowerCase();
    const sort = url.searchParams.get('sort') as keyof Traveller | null;
    const direction = url.searchParams.get('order') === 'desc' ? -1 : 1;
    let matching = q ? rows.filter((row) => row.name.toLowerCase().includes(q)) : rows;
    if (sort) {
      const compare = (a: Traveller, b: Traveller) =>
        typeof a[sort] === 'number'
          ? Number(a[sort]) - Number(b[sort])
          : String(a[sort]).localeCompare(String(b[sort]));
      matching = [...matching].sort((a, b) => compare(a, b) * direction);
    }
    const body: ListPage<Traveller> = {
      items: matching.slice((page - 1) * pageSize, page * pageSize),
      total: matching.length,
      page,
      pageSize,
    };
    return { body };
  };
}

const columns: DataTableColumn<Traveller, 'name' | 'email'>[] = [
  { id: 'id', header: 'ID', cell: (row) => row.id, numeric: true },
  { id: 'name', header: 'Name', cell: (row) => row.name, sortKey: 'name' },
  { id: 'email', header: 'Email', cell: (row) => row.email, sortKey: 'email' },
];

function TravellersTable() {
  const state = useTableUrlState({
    sortKeys: ['id', 'name', 'email'] as const,
    defaultSort: 'id',
    pageSizes: [10, 25, 50],
    defaultPageSize: 10,
  });
  const query = useQuery(paginatedQueryOptions<Traveller>(['travellers'], '/travellers', state.params));
  return (
    <DataTable
      caption="Travellers"
      columns={columns}
      state={state}
      query={query}
      rowKey={(row) => row.id}
      searchLabel="Search travellers"
      errorTitle="Travellers could not be loaded"
      empty={{ title: 'No travellers yet', description: 'Travellers appear here once they sign up.' }}
    />
  );
}

async function open(path: string, route: MockRoute = listEndpoint(travellers)) {
  const api = mockApi({ 'GET /api/travellers': route });
  const requests = () => api.calls('GET /api/travellers').map((request) => new URL(request.url).search);
  return { requests, ...(await renderAtPath(<TravellersTable />, path)) };
}

/** The first cell of each body row. */
function ids(): string[] {
  const table = screen.getByRole('table', { name: 'Travellers' });
  const [, ...rows] = within(table).getAllByRole('row');
  return rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent ?? '');
}

const range = (text: string) => screen.findByText(text, { selector: 'p' });

describe('DataTable with its state in the URL', () => {
  it('asks for and shows what the URL says, and the range of rows on the page', async () => {
    const { requests } = await open('/list?page=2&pageSize=25&sort=name&order=desc');
    expect(await range('26–50 of 60')).toBeInTheDocument();
    expect(requests()).toEqual(['?page=2&pageSize=25&sort=name&order=desc']);
    expect(ids()[0]).toBe('35');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByRole('columnheader', { name: 'ID' })).not.toHaveAttribute('aria-sort');
    expect(screen.getByLabelText('Rows per page')).toHaveValue('25');
  });

  it('ignores values the URL may not hold: unknown sort keys, orders and page sizes, pages below 1', async () => {
    const { requests } = await open('/list?page=-2&pageSize=7&sort=password&order=sideways');
    expect(await range('1–10 of 60')).toBeInTheDocument();
    expect(requests()).toEqual(['?page=1&pageSize=10&sort=id&order=asc']);
  });

  it('sorts by a column, flips the order on a second click, and goes back to page 1', async () => {
    const { history, requests } = await open('/list?page=3');
    expect(await range('21–30 of 60')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(history.location.search).toBe('?sort=email'));
    expect(await range('1–10 of 60')).toBeInTheDocument();
    await waitFor(() => expect(ids()[0]).toBe('60'));
    expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'ascending');

    fireEvent.click(screen.getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(history.location.search).toBe('?sort=email&order=desc'));
    await waitFor(() => expect(ids()[0]).toBe('1'));
    expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'descending');

    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(history.location.search).toBe('?sort=name'));
    expect(requests()).toEqual([
      '?page=3&pageSize=10&sort=id&order=asc',
      '?page=1&pageSize=10&sort=email&order=asc',
      '?page=1&pageSize=10&sort=email&order=desc',
      '?page=1&pageSize=10&sort=name&order=asc',
    ]);
  });

  it('pages forward as new history entries that Back and a reload return to', async () => {
    const { history, unmount } = await open('/list');
    expect(await range('1–10 of 60')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await range('11–20 of 60')).toBeInTheDocument();
    expect(history.location.search).toBe('?page=2');
    expect(history.index).toBe(1);
    expect(ids()[0]).toBe('11');

    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '50' } });
    expect(await range('1–50 of 60')).toBeInTheDocument();
    expect(history.location.search).toBe('?pageSize=50');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await range('51–60 of 60')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    act(() => history.go(-1));
    expect(await range('1–50 of 60')).toBeInTheDocument();
    act(() => history.go(-1));
    expect(await range('11–20 of 60')).toBeInTheDocument();
    act(() => history.go(1));
    expect(await range('1–50 of 60')).toBeInTheDocument();

    // a reload: a fresh app at the same URL
    const url = `${history.location.pathname}${history.location.search}`;
    unmount();
    await open(url);
    expect(await range('1–50 of 60')).toBeInTheDocument();
  });

  it('sends the search once typing pauses, as one history entry, from page 1', async () => {
    const { history, requests } = await open('/list?page=4');
    expect(await range('31–40 of 60')).toBeInTheDocument();
    const search = screen.getByRole('searchbox', { name: 'Search travellers' });
    fireEvent.change(search, { target: { value: 'T' } });
    fireEvent.change(search, { target: { value: 'Traveller 0' } });
    fireEvent.change(search, { target: { value: 'Traveller 1 ' } });
    // nothing is sent while typing goes on
    expect(history.location.search).toBe('?page=4');

    await waitFor(() => expect(history.location.search).toBe('?q=Traveller+1'));
    expect(await range('1–10 of 10')).toBeInTheDocument();
    expect(history.index).toBe(1);
    expect(search).toHaveValue('Traveller 1 ');
    expect(requests()).toEqual([
      '?page=4&pageSize=10&sort=id&order=asc',
      '?page=1&pageSize=10&sort=id&order=asc&q=Traveller+1',
    ]);

    // Back restores the box as well as the rows
    act(() => history.go(-1));
    expect(await range('31–40 of 60')).toBeInTheDocument();
    expect(search).toHaveValue('');
  });

  it('says when a search matches nothing, and clears it', async () => {
    const { history } = await open('/list?q=nobody');
    expect(await screen.findByText('No matches')).toBeInTheDocument();
    expect(screen.getByText('Nothing matches “nobody”.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await range('1–10 of 60')).toBeInTheDocument();
    expect(history.location.search).toBe('');
    expect(screen.getByRole('searchbox', { name: 'Search travellers' })).toHaveValue('');
  });

  it('shows the empty state of an empty list', async () => {
    await open('/list', listEndpoint([]));
    expect(await screen.findByText('No travellers yet')).toBeInTheDocument();
    expect(screen.getByText('Travellers appear here once they sign up.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a skeleton while the first page loads, then the error with a Retry that loads again', async () => {
    let fail = true;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { requests } = await open('/list', async (request) => {
      await released;
      if (fail) return { status: 500, body: { message: 'The database is asleep' } };
      return listEndpoint(travellers)(request);
    });
    expect(await screen.findByRole('status', { name: 'Loading travellers' })).toHaveAttribute('aria-busy', 'true');
    release();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Travellers could not be loaded');
    expect(alert).toHaveTextContent('The database is asleep');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await range('1–10 of 60')).toBeInTheDocument();
    expect(requests()).toHaveLength(2);
  });

  it('goes to the last page, in place, when the URL names a page past the end', async () => {
    const { history } = await open('/list?page=9');
    expect(await range('51–60 of 60')).toBeInTheDocument();
    expect(history.location.search).toBe('?page=6');
    expect(history.index).toBe(0);
  });
});
