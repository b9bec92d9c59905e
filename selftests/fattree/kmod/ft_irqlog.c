// SPDX-License-Identifier: GPL-2.0
/*
 * A selftest helper: log lines from hard interrupt context, as a driver's
 * interrupt handler may, so that a console (netconsole on a leaf) has to
 * transmit from there. Loading it logs @lines lines at level crit, one per
 * hrtimer expiry (hard interrupt mode), each "@text <n>", and returns once
 * they are all logged.
 */
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/module.h>

static uint lines = 8;
module_param(lines, uint, 0444);
MODULE_PARM_DESC(lines, "Lines to log");

static char *text = "ft_irqlog";
module_param(text, charp, 0444);
MODULE_PARM_DESC(text, "Text of each line");

static struct hrtimer ft_irqlog_timer;
static DECLARE_COMPLETION(ft_irqlog_done);
static uint ft_irqlog_n;

static enum hrtimer_restart ft_irqlog_fire(struct hrtimer *t)
{
	pr_crit("%s %u in_hardirq=%d\n", text, ft_irqlog_n,
		in_hardirq() ? 1 : 0);
	if (++ft_irqlog_n >= lines) {
		complete(&ft_irqlog_done);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(t, ms_to_ktime(2));
	return HRTIMER_RESTART;
}

static int __init ft_irqlog_init(void)
{
	if (!lines)
		return 0;
	hrtimer_init(&ft_irqlog_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	ft_irqlog_timer.function = ft_irqlog_fire;
	hrtimer_start(&ft_irqlog_timer, ms_to_ktime(2), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&ft_irqlog_done);
	hrtimer_cancel(&ft_irqlog_timer);
	return 0;
}

static void __exit ft_irqlog_exit(void)
{
}

module_init(ft_irqlog_init);
module_exit(ft_irqlog_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fattree selftest helper: log from hard interrupt context");
