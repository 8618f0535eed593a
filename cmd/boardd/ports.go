package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/boardd/boardd/serialport"
)

func runPorts(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "ports",
		usage: []string{"ports"},
		about: "Lists the serial ports that may be a board: the path, the USB vendor and product id, the product's name, its serial number and the stable names udev gives it. Use one with --sensor serial:PATH --led serial:PATH, or serial:usb:VID:PID to find the board by its USB id wherever it is plugged in.",
		examples: []string{
			"boardd ports",
			"boardd run --sensor serial:usb:2E8A:000A --led serial:usb:2E8A:000A",
		},
		exit: "Exit status: 0 when the ports could be listed (perhaps none); 1 when they could not; 2 for a bad command line.",
	}
	fs := h.flags()
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := h.noArgs(env, fs); !ok {
		return code
	}
	ports, err := serialport.List(serialport.ListOptions{})
	if err != nil && len(ports) == 0 {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v (listing what is known)\n", err)
	}
	writePorts(env, ports)
	return 0
}

func writePorts(env *environment, ports []serialport.PortInfo) {
	if len(ports) == 0 {
		fmt.Fprintln(env.stdout, "no serial ports found")
		return
	}
	tw := tabwriter.NewWriter(env.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tUSB ID\tPRODUCT\tSERIAL\tALSO")
	for _, p := range ports {
		id, product := "-", "-"
		if p.USB {
			id = p.USBID()
			product = strings.TrimSpace(strings.Join([]string{p.Manufacturer, p.Product}, " "))
			if product == "" {
				product = "-"
			}
		}
		serial := p.Serial
		if serial == "" {
			serial = "-"
		}
		also := strings.Join(p.Aliases, " ")
		if also == "" {
			also = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Path, id, product, serial, also)
	}
	tw.Flush()
}
