// Shorthand for the layout tables of the record files: at() and bytes_at() of mad/codec/field_table.h (found
// from this namespace, which nests in smd::mad), a field by byte offset, first bit (0 = the byte's most
// significant) and width, as the IBA tables give them.
#pragma once

#include "mad/codec/field_table.h"
#include "mad/sa/record_layout.h"
