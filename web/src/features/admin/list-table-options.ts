import type { TableUrlStateOptions } from '@/hooks/use-table-url-state';
import type { SortOrder } from '@/lib/pagination';
import type { z } from 'zod';

/** What every list query schema (`listQuerySchema` in _shared/schemas/pagination.ts) holds. */
interface ListQuerySchemaShape<S extends string> {
  sort: z.ZodDefault<z.ZodEnum<{ [K in S]: K }>>;
  order: z.ZodDefault<z.ZodEnum<{ asc: 'asc'; desc: 'desc' }>>;
}

/**
 * A table's sort keys and default order, read from the endpoint's own query schema, so the
 * screen asks for exactly what the api accepts and leaves the api's defaults out of the URL.
 */
export function tableOptionsOf<S extends string>(
  schema: { shape: ListQuerySchemaShape<S> },
  prefix?: string,
): TableUrlStateOptions<S> {
  const { sort, order } = schema.shape;
  return {
    sortKeys: sort.removeDefault().options,
    defaultSort: sort.def.defaultValue,
    defaultOrder: order.def.defaultValue as SortOrder,
    ...(prefix ? { prefix } : {}),
  };
}
