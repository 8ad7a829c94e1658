/* One schema step of a store, shared by both backends (sqlite: db.h,
 * PostgreSQL: pg.h). Each store keeps its own list; the table
 * cc_migrations(store, version, applied_at) records what was applied. */
#ifndef CC_STATE_MIGRATION_H
#define CC_STATE_MIGRATION_H

/* The SQL runs in one transaction with the version bump. Versions start at
 * 1 and increase by one. */
struct cc_migration {
    int version;
    const char *sql;
};

#endif
