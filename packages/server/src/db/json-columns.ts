import {
  ColumnNode,
  type ColumnUpdateNode,
  DeleteQueryNode,
  InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PrimitiveValueListNode,
  type QueryResult,
  RawNode,
  type RootOperationNode,
  SelectQueryNode,
  TableNode,
  type UnknownRow,
  UpdateQueryNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
} from 'kysely';

/**
 * The jsonb columns of every table. db/json-columns.test.ts checks this list against the database
 * after all migrations, so a new jsonb column cannot be forgotten here.
 */
export const JSON_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  app_user: ['private_settings'],
  dossier_query: ['data', 'translations'],
  mypage_block: ['translations', 'settings'],
  mypage_position: ['positions'],
  environment: ['settings'],
  role: ['translations'],
  def_dossier: ['translations', 'settings'],
  def_field: ['settings'],
  def_field_list: ['translations', 'settings'],
  def_dossier_def_field: ['settings'],
  def_dossier_link: ['settings'],
  display_position: ['translations'],
  display_item: ['translations', 'settings'],
  content_dossier: ['summaries', 'values'],
  dossier_log: ['changes'],
  message: ['notice'],
  template: ['template', 'translations'],
};

/** Objects and arrays become JSON text; strings (already JSON), numbers, null and dates pass as they are. */
function toJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date || ArrayBuffer.isView(value))
    return value;
  return JSON.stringify(value);
}

const tableName = (node: OperationNode | undefined): string | undefined =>
  node && TableNode.is(node) ? node.table.identifier.name : undefined;

/**
 * node-postgres and PGlite send a JS array as a PostgreSQL array literal, which a jsonb column
 * rejects (or, for [], stores as {}). This transformer serialises every value written to a jsonb
 * column (insert values, update sets, on-conflict sets) once, here, so callers pass plain values.
 */
class JsonValueTransformer extends OperationNodeTransformer {
  constructor(private readonly columns: ReadonlyMap<string, ReadonlySet<string>>) {
    super();
  }

  protected override transformInsertQuery(node: InsertQueryNode): InsertQueryNode {
    const json = this.columns.get(tableName(node.into) ?? '');
    if (!json) return super.transformInsertQuery(node);
    const isJson = (node.columns ?? []).map((column) => json.has(column.column.name));
    const values =
      node.values && ValuesNode.is(node.values)
        ? ValuesNode.create(
            node.values.values.map((list) =>
              PrimitiveValueListNode.is(list)
                ? PrimitiveValueListNode.create(list.values.map((v, i) => (isJson[i] ? toJson(v) : v)))
                : ValueListNode.create(
                    list.values.map((v, i) =>
                      isJson[i] && ValueNode.is(v) ? ValueNode.create(toJson(v.value)) : v,
                    ),
                  ),
            ),
          )
        : node.values;
    const onConflict = node.onConflict?.updates
      ? { ...node.onConflict, updates: this.serialiseUpdates(node.onConflict.updates, json) }
      : node.onConflict;
    return super.transformInsertQuery({ ...node, values, onConflict });
  }

  protected override transformUpdateQuery(node: UpdateQueryNode): UpdateQueryNode {
    const json = this.columns.get(tableName(node.table) ?? '');
    if (!json || !node.updates) return super.transformUpdateQuery(node);
    return super.transformUpdateQuery({ ...node, updates: this.serialiseUpdates(node.updates, json) });
  }

  private serialiseUpdates(updates: readonly ColumnUpdateNode[], json: ReadonlySet<string>) {
    return updates.map((update) =>
      ColumnNode.is(update.column) && json.has(update.column.column.name) && ValueNode.is(update.value)
        ? { ...update, value: ValueNode.create(toJson(update.value.value)) }
        : update,
    );
  }
}

/**
 * Whether a statement writes: an insert or an update at its top, in a WITH of its top (the only
 * place PostgreSQL allows one), or in a raw statement around either. Looks at those places only,
 * without rebuilding anything: the transformer rebuilds and freezes every node it passes, which for a
 * list page's select was a measurable part of the request, all to change nothing.
 */
function writes(node: OperationNode): boolean {
  if (InsertQueryNode.is(node) || UpdateQueryNode.is(node)) return true;
  if (RawNode.is(node)) return node.parameters.some(writes);
  if (SelectQueryNode.is(node) || DeleteQueryNode.is(node))
    return node.with?.expressions.some((cte) => writes(cte.expression)) ?? false;
  return false;
}

export class JsonColumnsPlugin implements KyselyPlugin {
  private readonly transformer = new JsonValueTransformer(
    new Map(Object.entries(JSON_COLUMNS).map(([table, columns]) => [table, new Set(columns)])),
  );

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return writes(args.node) ? this.transformer.transformNode(args.node) : args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
