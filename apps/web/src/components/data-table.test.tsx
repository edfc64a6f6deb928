import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../testing/api-stub.tsx';
import { type Column, DataTable, rowsCsv } from './data-table.tsx';

interface Row {
  id: string;
  name: string;
  joined: string | null;
}

const ROWS: Row[] = Array.from({ length: 12 }, (_, i) => ({
  id: `r${i + 1}`,
  name: `Name ${String.fromCharCode(76 - i)}`,
  joined: i % 4 === 0 ? null : `2026-0${(i % 9) + 1}-01T00:00:00Z`,
}));

const COLUMNS: Column<Row>[] = [
  { id: 'name', header: 'Name', sortValue: (r) => r.name, cell: (r) => r.name },
  { id: 'joined', header: 'Joined', sortValue: (r) => r.joined, cell: (r) => r.joined ?? 'never' },
  { id: 'actions', header: 'Actions', cell: () => <button type="button">Open</button> },
];

function Table({ rows = ROWS, isLoading = false }: { rows?: Row[]; isLoading?: boolean }) {
  return (
    <DataTable
      label="People"
      columns={COLUMNS}
      rows={isLoading ? undefined : rows}
      rowKey={(r) => r.id}
      isLoading={isLoading}
      pageSize={5}
      inAddress
      csvExport={{ name: 'people' }}
    />
  );
}

const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

function renderAt(path: string, element = <Table />) {
  return renderScreen(path, [{ path: '/list', element }]);
}

describe('DataTable sorting, address and export', () => {
  it('sorts by a column: ascending, descending, then the list’s own order, with aria-sort', async () => {
    const router = renderAt('/list');
    expect(names()).toEqual(['Name L', 'Name K', 'Name J', 'Name I', 'Name H']);
    const header = screen.getByRole('columnheader', { name: 'Name' });
    expect(header.getAttribute('aria-sort')).toBeNull();
    expect(within(screen.getByRole('columnheader', { name: 'Actions' })).queryByRole('button')).toBeNull();

    fireEvent.click(within(header).getByRole('button', { name: 'Name' }));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    expect(names()).toEqual(['Name A', 'Name B', 'Name C', 'Name D', 'Name E']);
    expect(router.state.location.search).toBe('?sort=name');

    fireEvent.click(within(header).getByRole('button', { name: 'Name' }));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    expect(names()).toEqual(['Name L', 'Name K', 'Name J', 'Name I', 'Name H']);
    expect(router.state.location.search).toBe('?sort=-name');

    fireEvent.click(within(header).getByRole('button', { name: 'Name' }));
    expect(header.getAttribute('aria-sort')).toBeNull();
    expect(router.state.location.search).toBe('');
  });

  it('keeps empty values last in both orders', async () => {
    renderAt('/list?sort=-joined');
    const joined = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[1]!.textContent);
    expect(joined()[0]).toBe('2026-08-01T00:00:00Z');
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(joined()).toEqual(['never', 'never']);
  });

  it('keeps the page in the address: Back returns to it, a new order starts at page 1', async () => {
    const router = renderAt('/list?sort=name&page=2');
    expect(names()).toEqual(['Name F', 'Name G', 'Name H', 'Name I', 'Name J']);
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(router.state.location.search).toBe('?sort=name&page=3');
    await router.navigate(-1);
    await waitFor(() => expect(names()[0]).toBe('Name F'));
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'Joined' })).getByRole('button'));
    expect(router.state.location.search).toBe('?sort=joined');
  });

  it('reads on from the server to reach a page the address asks for', async () => {
    function Paged() {
      const [rows, setRows] = useState(ROWS.slice(0, 5));
      const load = vi.fn(async () => setRows((r) => ROWS.slice(0, r.length + 5)));
      return (
        <DataTable
          label="People"
          columns={COLUMNS}
          rows={rows}
          rowKey={(r) => r.id}
          isLoading={false}
          pageSize={5}
          inAddress
          more={rows.length < ROWS.length ? { load, loading: false } : undefined}
        />
      );
    }
    renderAt('/list?page=3', <Paged />);
    await waitFor(() => expect(names()).toEqual(['Name B', 'Name A']));
  });

  it('shows rows shaped like the table while the first page loads', () => {
    renderAt('/list', <Table isLoading />);
    const body = screen.getAllByRole('rowgroup')[1]!;
    expect(body.getAttribute('aria-busy')).toBe('true');
    expect(within(body).getAllByRole('row')).toHaveLength(5);
    expect(within(body).getAllByRole('row')[0]!.querySelectorAll('.skeleton')).toHaveLength(3);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
  });

  it('exports the rows in the order shown, as CSV with formula-looking text defused', async () => {
    const saved: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (b: Blob) => {
        saved.push(b);
        return 'blob:x';
      },
      revokeObjectURL: () => {},
    });
    renderAt(
      '/list?sort=name',
      <Table rows={[...ROWS.slice(0, 2), { id: 'x', name: '=HYPERLINK("x")', joined: null }]} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV of People' }));
    await screen.findByText(/Exported 3 rows to people-\d{4}-\d\d-\d\d\.csv\./);
    expect(await saved[0]!.text()).toBe(
      'Name,Joined\r\n"\'=HYPERLINK(""x"")",\r\nName K,2026-02-01T00:00:00Z\r\nName L,\r\n',
    );
    vi.unstubAllGlobals();
  });

  it('writes only the columns that have a value', () => {
    expect(rowsCsv(ROWS.slice(0, 1), COLUMNS)).toBe('Name,Joined\r\nName L,\r\n');
  });
});
