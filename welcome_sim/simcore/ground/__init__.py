"""The ground floor: number codes, the sheet layout, table slots, data-file loading, the compile helpers."""
