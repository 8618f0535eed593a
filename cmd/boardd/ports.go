package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/boardd/boardd/serialport"
)

func runPorts(ctx context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("ports", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintln(env.stderr, "usage: boardd ports\n\nList the serial ports that may be a board: path, USB VID:PID, product. Use one with\n--sensor serial:PATH --led serial:PATH, or serial:usb:VID:PID to find it by id.")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
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
