/* dut_proc.h — an implementation under test behind the ttdut line protocol, as a process
 * (dut_proc.c): open()'s args is the shell command. */
#ifndef TT_DUT_PROC_H
#define TT_DUT_PROC_H
#include "ttdut.h"
const ttdut_ops *dut_proc_ops(void);
#endif
